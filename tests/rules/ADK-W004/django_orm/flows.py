"""Django's ORM in a workflow: building a queryset sends nothing; evaluating one (get, exists,
count, update, create, and their async forms) queries the database on every replay."""
from dbos import DBOS

from models import Post


@DBOS.step()
def count_published() -> int:
    return Post.objects.published().count()


@DBOS.workflow()
def share(post_id: int) -> str:
    recent = Post.objects.filter(id=post_id).order_by("-id")
    if not recent.exists():  # expect: ADK-W004
        return "missing"
    post = Post.objects.get(id=post_id)  # expect: ADK-W004
    total = count_published()
    Post.objects.filter(id=post_id).update(title=f"{post.title} ({total})")  # expect: ADK-W004
    return "done"


@DBOS.workflow()
async def archive(post_id: int) -> int:
    return await Post.objects.filter(id=post_id).acount()  # expect: ADK-W004
