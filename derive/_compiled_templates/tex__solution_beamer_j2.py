"""solution.beamer.j2 (tex) compiled by Jinja 3.1.6; written by python -m derive._compiled_templates, do not edit."""
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'solution.beamer.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_lang = resolve('lang')
    l_0_w = l_0_b = l_0_f = l_0_document = missing
    try:
        t_1 = environment.filters['_budget_filter_in']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named '_budget_filter_in' found.")
    try:
        t_2 = environment.filters['_budget_filter_out']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named '_budget_filter_out' found.")
    try:
        t_3 = environment.filters['_budget_str']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named '_budget_str' found.")
    try:
        t_4 = environment.filters['_budget_text']
    except KeyError:
        @internalcode
        def t_4(*unused):
            raise TemplateRuntimeError("No filter named '_budget_text' found.")
    try:
        t_5 = environment.filters['cjk_setup']
    except KeyError:
        @internalcode
        def t_5(*unused):
            raise TemplateRuntimeError("No filter named 'cjk_setup' found.")
    pass
    l_0_w = context.vars['w'] = environment.get_template('_solution.j2', 'solution.beamer.j2').make_module(context.get_all(), True, {'b': l_0_b, 'document': l_0_document, 'f': l_0_f, 'w': l_0_w})
    context.exported_vars.discard('w')
    l_0_b = context.vars['b'] = environment.get_template('_beamer.j2', 'solution.beamer.j2').make_module(context.get_all(), True, {'b': l_0_b, 'document': l_0_document, 'f': l_0_f, 'w': l_0_w})
    context.exported_vars.discard('b')
    l_0_f = context.vars['f'] = environment.get_template('_tex.j2', 'solution.beamer.j2')._get_default_module(context)
    context.exported_vars.discard('f')
    l_1_s = resolve('s')
    t_6 = []
    pass
    t_6.extend((
        str(t_4(environment.call(context, environment.getattr((undefined(name='b') if l_0_b is missing else l_0_b), 'titles'), environment.getattr(environment.getattr((undefined(name='s') if l_1_s is missing else l_1_s), 'target'), 'name')))),
        '\n\\begin{document}\n\\begin{frame}\n\\titlepage\n\\end{frame}\n',
        str(t_4(environment.call(context, environment.getattr((undefined(name='b') if l_0_b is missing else l_0_b), 'solution_frames'), (undefined(name='s') if l_1_s is missing else l_1_s)))),
        '\n',
        str(t_4(environment.call(context, environment.getattr((undefined(name='b') if l_0_b is missing else l_0_b), 'frame'), environment.call(context, environment.getattr((undefined(name='b') if l_0_b is missing else l_0_b), 'heading'), 'w_given'), environment.call(context, environment.getattr((undefined(name='b') if l_0_b is missing else l_0_b), 'subheading'), 'w_given'), t_3(str_join((t_4(environment.call(context, environment.getattr((undefined(name='b') if l_0_b is missing else l_0_b), 'given_table'), (undefined(name='s') if l_1_s is missing else l_1_s))), t_4(environment.call(context, environment.getattr((undefined(name='b') if l_0_b is missing else l_0_b), 'checks_part'), (undefined(name='s') if l_1_s is missing else l_1_s))), )))))),
        '\n',
        str(t_4(environment.call(context, environment.getattr((undefined(name='b') if l_0_b is missing else l_0_b), 'frame'), environment.call(context, environment.getattr((undefined(name='b') if l_0_b is missing else l_0_b), 'heading'), 'w_sources'), environment.call(context, environment.getattr((undefined(name='b') if l_0_b is missing else l_0_b), 'subheading'), 'w_sources'), t_3(str_join(('{\\small ', t_4(environment.call(context, environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'source_items'), environment.getattr((undefined(name='s') if l_1_s is missing else l_1_s), 'citations'))), '}', )))))),
        '\n\\end{document}\n',
    ))
    l_0_document = (Markup if context.eval_ctx.autoescape else identity)(concat(t_6))
    context.vars['document'] = l_0_document
    context.exported_vars.add('document')
    l_1_s = missing
    yield str(t_4(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'preamble'), 'beamer', (undefined(name='lang') if l_0_lang is missing else l_0_lang), cjk=t_2(t_5(t_1((undefined(name='document') if l_0_document is missing else l_0_document), 'cjk_setup'), (undefined(name='lang') if l_0_lang is missing else l_0_lang)), 'cjk_setup'))))
    yield '\n'
    yield str(t_4((undefined(name='document') if l_0_document is missing else l_0_document)))
    yield '\n'

blocks = {}
debug_info = '4=43&5=45&6=47&9=53&14=55&15=57&16=59&8=62&19=66&20=68'
