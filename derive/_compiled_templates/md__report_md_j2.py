"""report.md.j2 (md) compiled by Jinja 3.1.6; written by python -m derive._compiled_templates, do not edit."""
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'report.md.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_lang = resolve('lang')
    l_0_msg = resolve('msg')
    l_0_problem = resolve('problem')
    l_0_regenerate = resolve('regenerate')
    l_0_other_language_file = resolve('other_language_file')
    l_0_r = l_0_w = missing
    try:
        t_1 = environment.filters['_budget_text']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named '_budget_text' found.")
    pass
    l_0_r = context.vars['r'] = environment.get_template('_report.j2', 'report.md.j2').make_module(context.get_all(), True, {'r': l_0_r, 'w': l_0_w})
    context.exported_vars.discard('r')
    l_0_w = context.vars['w'] = environment.get_template('_solution.j2', 'report.md.j2').make_module(context.get_all(), True, {'r': l_0_r, 'w': l_0_w})
    context.exported_vars.discard('w')
    yield '# '
    yield str(t_1(environment.call(context, environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'title_text'), (undefined(name='lang') if l_0_lang is missing else l_0_lang))))
    yield '\n\n<!-- '
    yield str(t_1(environment.call(context, (undefined(name='msg') if l_0_msg is missing else l_0_msg), 'w_generated', 'en', file=environment.getattr((undefined(name='problem') if l_0_problem is missing else l_0_problem), 'file'))))
    yield ': '
    yield str(t_1((undefined(name='regenerate') if l_0_regenerate is missing else l_0_regenerate)))
    yield ' -->\n'
    if (undefined(name='other_language_file') if l_0_other_language_file is missing else l_0_other_language_file):
        pass
        yield '\n['
        yield str(t_1(environment.call(context, (undefined(name='msg') if l_0_msg is missing else l_0_msg), 'w_other_language', (undefined(name='lang') if l_0_lang is missing else l_0_lang))))
        yield ']('
        yield str(t_1((undefined(name='other_language_file') if l_0_other_language_file is missing else l_0_other_language_file)))
        yield ')\n'
    yield '\n'
    yield str(t_1(environment.call(context, environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'source_line'))))
    yield '\n'
    yield str(t_1(environment.call(context, environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'summary_part'), 2)))
    yield '\n'
    yield str(t_1(environment.call(context, environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'problem_part'), 2)))
    yield '\n'
    yield str(t_1(environment.call(context, environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'questions_part'), 2)))
    yield '\n'
    yield str(t_1(environment.call(context, environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'sources_part'), 2)))
    yield '\n'

blocks = {}
debug_info = '3=23&4=25&5=28&7=30&8=34&10=37&13=42&14=44&15=46&16=48&17=50'
