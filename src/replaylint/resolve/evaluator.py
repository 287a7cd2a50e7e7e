"""The single walk over one module: the Evaluator is its concerns put together, with the tables
that send each node type to the method that resolves it. See walker.py for how the walk reads
a module, facts.py for what it hands to the rules."""

from __future__ import annotations

import libcst as cst

from replaylint.resolve import folds
from replaylint.resolve.applied import Applied
from replaylint.resolve.calls import Calls
from replaylint.resolve.catalog import Catalog
from replaylint.resolve.containers import Containers
from replaylint.resolve.definitions import Definitions
from replaylint.resolve.expressions import Expressions
from replaylint.resolve.facts import FactSink
from replaylint.resolve.framework_calls import FrameworkCalls
from replaylint.resolve.imports import Imports
from replaylint.resolve.model import ModuleInfo
from replaylint.resolve.statements import Statements
from replaylint.resolve.through_params import ThroughParams
from replaylint.resolve.walker import ModuleSource


def _nothing(node: cst.CSTNode) -> None:
    return None


class Evaluator(
    Statements,
    Expressions,
    Calls,
    FrameworkCalls,
    Applied,
    Definitions,
    Imports,
    Containers,
    ThroughParams,
):
    def __init__(
        self, project: ModuleSource, module: ModuleInfo, catalog: Catalog, sink: FactSink
    ) -> None:
        super().__init__(project, module, catalog, sink)
        self._stmt = {
            cst.SimpleStatementLine: self._simple_line,
            cst.SimpleStatementSuite: self._simple_line,
            cst.IndentedBlock: self._block,
            cst.FunctionDef: self._function_def,
            cst.ClassDef: self._class_def,
            cst.If: self._if,
            cst.For: self._for,
            cst.While: self._while,
            cst.Try: self._try,
            cst.TryStar: self._try,
            cst.With: self._with,
            cst.Match: self._match,
            cst.Expr: self._expr_stmt,
            cst.Assign: self._assign,
            cst.AnnAssign: self._ann_assign,
            cst.AugAssign: self._aug_assign,
            cst.Return: self._return,
            cst.Import: self._import,
            cst.ImportFrom: self._import_from,
            cst.Global: self._global,
            cst.Nonlocal: self._global,
            cst.Del: self._del,
            cst.Pass: _nothing,
            cst.Break: _nothing,
            cst.Continue: _nothing,
        }
        self._expr = {
            cst.Name: self._name,
            cst.Attribute: self._attribute,
            cst.Call: self._call,
            cst.Subscript: self._subscript,
            cst.Lambda: self._lambda,
            cst.Await: self._await,
            cst.SimpleString: folds.literal,
            cst.ConcatenatedString: self._concatenated,
            cst.Integer: folds.literal,
            cst.Float: folds.literal,
            cst.FormattedString: self._fstring,
            cst.BinaryOperation: self._binary,
            cst.BooleanOperation: self._boolean,
            cst.IfExp: self._if_exp,
            cst.Tuple: self._sequence,
            cst.List: self._sequence,
            cst.ListComp: self._any_comprehension,
            cst.SetComp: self._any_comprehension,
            cst.GeneratorExp: self._any_comprehension,
            cst.DictComp: self._any_comprehension,
            cst.Set: self._set_display,
            cst.NamedExpr: self._named_expr,
            cst.UnaryOperation: self._unary,
            cst.Dict: self._dict,
        }
