from django.db import models


class PostManager(models.Manager):
    def published(self):
        return self.filter(published=True)


class Post(models.Model):
    title = models.CharField(max_length=100)
    published = models.BooleanField(default=False)
    objects = PostManager()
