"""live-preamble.tex.j2 (tex) compiled by Jinja 3.1.6; written by python -m derive._compiled_templates, do not edit."""
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'live-preamble.tex.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_lang = resolve('lang')
    l_0_f = missing
    try:
        t_1 = environment.filters['_budget_text']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named '_budget_text' found.")
    pass
    l_0_f = context.vars['f'] = environment.get_template('_tex.j2', 'live-preamble.tex.j2')._get_default_module(context)
    context.exported_vars.discard('f')
    yield str(t_1(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'preamble'), 'article', (undefined(name='lang') if l_0_lang is missing else l_0_lang))))
    yield '\n\\usepackage{graphicx}\n'

blocks = {}
debug_info = '4=19&5=21'
