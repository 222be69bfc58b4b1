"""solution.html.j2 (html) compiled by Jinja 3.1.6; written by python -m derive._compiled_templates, do not edit."""
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'solution.html.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_pick = resolve('pick')
    l_0_s = resolve('s')
    l_0_lang = resolve('lang')
    l_0_w = l_0_f = missing
    try:
        t_1 = environment.filters['_budget_text']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named '_budget_text' found.")
    pass
    l_0_w = context.vars['w'] = environment.get_template('_solution.j2', 'solution.html.j2').make_module(context.get_all(), True, {'f': l_0_f, 'w': l_0_w})
    context.exported_vars.discard('w')
    l_0_f = context.vars['f'] = environment.get_template('_html.j2', 'solution.html.j2')._get_default_module(context)
    context.exported_vars.discard('f')
    yield escape(t_1(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'page_start'), environment.call(context, (undefined(name='pick') if l_0_pick is missing else l_0_pick), environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'target'), 'name'), (undefined(name='lang') if l_0_lang is missing else l_0_lang)), (undefined(name='lang') if l_0_lang is missing else l_0_lang))))
    yield '\n<h1>'
    yield escape(t_1(environment.call(context, (undefined(name='pick') if l_0_pick is missing else l_0_pick), environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'target'), 'name'), (undefined(name='lang') if l_0_lang is missing else l_0_lang))))
    yield '</h1>\n'
    yield escape(t_1(environment.call(context, environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'solution'), (undefined(name='s') if l_0_s is missing else l_0_s), 2)))
    yield '\n'
    yield escape(t_1(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'page_end'))))
    yield '\n'

blocks = {}
debug_info = '3=21&4=23&5=25&6=27&7=29&8=31'
