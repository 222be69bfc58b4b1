"""live-solution.tex.j2 (tex) compiled by Jinja 3.1.6; written by python -m derive._compiled_templates, do not edit."""
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'live-solution.tex.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_s = resolve('s')
    l_0_level = resolve('level')
    l_0_w = missing
    try:
        t_1 = environment.filters['_budget_text']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named '_budget_text' found.")
    pass
    l_0_w = context.vars['w'] = environment.get_template('_solution.j2', 'live-solution.tex.j2').make_module(context.get_all(), True, {'w': l_0_w})
    context.exported_vars.discard('w')
    yield str(t_1(environment.call(context, environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'solution'), (undefined(name='s') if l_0_s is missing else l_0_s), (undefined(name='level') if l_0_level is missing else l_0_level))))
    yield '\n'

blocks = {}
debug_info = '4=20&5=22'
