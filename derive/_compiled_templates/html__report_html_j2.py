"""report.html.j2 (html) compiled by Jinja 3.1.6; written by python -m derive._compiled_templates, do not edit."""
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'report.html.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_pick = resolve('pick')
    l_0_problem = resolve('problem')
    l_0_lang = resolve('lang')
    l_0_other_language_file = resolve('other_language_file')
    l_0_msg = resolve('msg')
    l_0_r = l_0_f = missing
    try:
        t_1 = environment.filters['_budget_text']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named '_budget_text' found.")
    pass
    l_0_r = context.vars['r'] = environment.get_template('_report.j2', 'report.html.j2').make_module(context.get_all(), True, {'f': l_0_f, 'r': l_0_r})
    context.exported_vars.discard('r')
    l_0_f = context.vars['f'] = environment.get_template('_html.j2', 'report.html.j2')._get_default_module(context)
    context.exported_vars.discard('f')
    yield escape(t_1(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'page_start'), environment.call(context, (undefined(name='pick') if l_0_pick is missing else l_0_pick), environment.getattr((undefined(name='problem') if l_0_problem is missing else l_0_problem), 'title'), (undefined(name='lang') if l_0_lang is missing else l_0_lang)), (undefined(name='lang') if l_0_lang is missing else l_0_lang))))
    yield '\n<h1>'
    yield escape(t_1(environment.call(context, environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'title_text'), (undefined(name='lang') if l_0_lang is missing else l_0_lang))))
    yield '</h1>\n'
    if (undefined(name='other_language_file') if l_0_other_language_file is missing else l_0_other_language_file):
        pass
        yield '<p class="meta"><a href="'
        yield escape(t_1((undefined(name='other_language_file') if l_0_other_language_file is missing else l_0_other_language_file)))
        yield '">'
        yield escape(t_1(environment.call(context, (undefined(name='msg') if l_0_msg is missing else l_0_msg), 'w_other_language', (undefined(name='lang') if l_0_lang is missing else l_0_lang))))
        yield '</a></p>\n'
    yield escape(t_1(environment.call(context, environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'source_line'))))
    yield '\n'
    yield escape(t_1(environment.call(context, environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'contents_part'), 2)))
    yield '\n'
    yield escape(t_1(environment.call(context, environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'summary_part'), 2)))
    yield '\n'
    yield escape(t_1(environment.call(context, environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'problem_part'), 2)))
    yield '\n'
    yield escape(t_1(environment.call(context, environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'questions_part'), 2)))
    yield '\n'
    yield escape(t_1(environment.call(context, environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'sources_part'), 2)))
    yield '\n'
    yield escape(t_1(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'page_end'))))
    yield '\n'

blocks = {}
debug_info = '3=23&4=25&5=27&6=29&7=31&8=34&10=38&11=40&12=42&13=44&14=46&15=48&16=50'
