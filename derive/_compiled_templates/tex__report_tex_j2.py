"""report.tex.j2 (tex) compiled by Jinja 3.1.6; written by python -m derive._compiled_templates, do not edit."""
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'report.tex.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_lang = resolve('lang')
    l_0_r = l_0_f = l_0_document = missing
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
        t_3 = environment.filters['_budget_text']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named '_budget_text' found.")
    try:
        t_4 = environment.filters['cjk_setup']
    except KeyError:
        @internalcode
        def t_4(*unused):
            raise TemplateRuntimeError("No filter named 'cjk_setup' found.")
    pass
    l_0_r = context.vars['r'] = environment.get_template('_report.j2', 'report.tex.j2').make_module(context.get_all(), True, {'document': l_0_document, 'f': l_0_f, 'r': l_0_r})
    context.exported_vars.discard('r')
    l_0_f = context.vars['f'] = environment.get_template('_tex.j2', 'report.tex.j2')._get_default_module(context)
    context.exported_vars.discard('f')
    l_1_pick = resolve('pick')
    l_1_problem = resolve('problem')
    t_5 = []
    pass
    t_5.extend((
        '\\title{',
        str(t_3(environment.call(context, (undefined(name='pick') if l_1_pick is missing else l_1_pick), environment.getattr((undefined(name='problem') if l_1_problem is missing else l_1_problem), 'title'), ('zh' if ((undefined(name='lang') if l_0_lang is missing else l_0_lang) == 'both') else (undefined(name='lang') if l_0_lang is missing else l_0_lang))))),
    ))
    if ((undefined(name='lang') if l_0_lang is missing else l_0_lang) == 'both'):
        pass
        t_5.extend((
            '\\\\[0.3em]\\large ',
            str(t_3(environment.call(context, (undefined(name='pick') if l_1_pick is missing else l_1_pick), environment.getattr((undefined(name='problem') if l_1_problem is missing else l_1_problem), 'title'), 'en'))),
        ))
    t_5.extend((
        '}\n\\author{}\n\\date{}\n\\begin{document}\n\\maketitle\n',
        str(t_3(environment.call(context, environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'source_line')))),
        '\n',
        str(t_3(environment.call(context, environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'summary_part'), 1))),
        '\n',
        str(t_3(environment.call(context, environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'problem_part'), 1))),
        '\n',
        str(t_3(environment.call(context, environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'questions_part'), 1))),
        '\n',
        str(t_3(environment.call(context, environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'sources_part'), 1))),
        '\n\\end{document}\n',
    ))
    l_0_document = (Markup if context.eval_ctx.autoescape else identity)(concat(t_5))
    context.vars['document'] = l_0_document
    context.exported_vars.add('document')
    l_1_pick = l_1_problem = missing
    yield str(t_3(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'preamble'), 'article', (undefined(name='lang') if l_0_lang is missing else l_0_lang), cjk=t_2(t_4(t_1((undefined(name='document') if l_0_document is missing else l_0_document), 'cjk_setup'), (undefined(name='lang') if l_0_lang is missing else l_0_lang)), 'cjk_setup'))))
    yield '\n'
    yield str(t_3((undefined(name='document') if l_0_document is missing else l_0_document)))
    yield '\n'

blocks = {}
debug_info = '3=37&4=39&7=47&12=57&13=59&14=61&15=63&16=65&6=68&19=72&20=74'
