"""check.txt.j2 (text) compiled by Jinja 3.1.6; written by python -m derive._compiled_templates, do not edit."""
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'check.txt.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_lang = resolve('lang')
    l_0_msg = resolve('msg')
    l_0_chapter = resolve('chapter')
    l_0_file = resolve('file')
    l_0_total = resolve('total')
    l_0_rows = resolve('rows')
    l_0_verdicts = resolve('verdicts')
    l_0_overridden = resolve('overridden')
    l_0_L = l_0_items = missing
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
        t_3 = environment.filters['_budget_iter']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named '_budget_iter' found.")
    try:
        t_4 = environment.filters['_budget_str']
    except KeyError:
        @internalcode
        def t_4(*unused):
            raise TemplateRuntimeError("No filter named '_budget_str' found.")
    try:
        t_5 = environment.filters['_budget_text']
    except KeyError:
        @internalcode
        def t_5(*unused):
            raise TemplateRuntimeError("No filter named '_budget_text' found.")
    try:
        t_6 = environment.filters['format']
    except KeyError:
        @internalcode
        def t_6(*unused):
            raise TemplateRuntimeError("No filter named 'format' found.")
    try:
        t_7 = environment.filters['join']
    except KeyError:
        @internalcode
        def t_7(*unused):
            raise TemplateRuntimeError("No filter named 'join' found.")
    pass
    l_0_L = (undefined(name='lang') if l_0_lang is missing else l_0_lang)
    context.vars['L'] = l_0_L
    context.exported_vars.add('L')
    yield str(t_5(environment.call(context, (undefined(name='msg') if l_0_msg is missing else l_0_msg), 'check_claims_in', (undefined(name='L') if l_0_L is missing else l_0_L), chapter=(undefined(name='chapter') if l_0_chapter is missing else l_0_chapter), file=(undefined(name='file') if l_0_file is missing else l_0_file), n=(undefined(name='total') if l_0_total is missing else l_0_total))))
    yield '\n\n'
    for l_1_r in t_3((undefined(name='rows') if l_0_rows is missing else l_0_rows)):
        _loop_vars = {}
        pass
        yield str(t_5(t_2(t_6('%-34s', environment.getattr(l_1_r, 'id')), 'format')))
        yield ' '
        yield str(t_5(environment.call(context, (undefined(name='msg') if l_0_msg is missing else l_0_msg), t_4(str_join(('check_verdict_', t_5(environment.getattr(l_1_r, 'verdict')), ))), (undefined(name='L') if l_0_L is missing else l_0_L), _loop_vars=_loop_vars)))
        yield '\n  "'
        yield str(t_5(environment.getattr(l_1_r, 'quote')))
        yield '"'
        if environment.getattr(l_1_r, 'where'):
            pass
            yield ' ('
            yield str(t_5(environment.getattr(l_1_r, 'where')))
            yield ')'
        yield '\n  '
        yield str(t_5(environment.call(context, (undefined(name='msg') if l_0_msg is missing else l_0_msg), 'check_stated', (undefined(name='L') if l_0_L is missing else l_0_L), _loop_vars=_loop_vars)))
        yield ': '
        yield str(t_5(environment.getattr(l_1_r, 'stated')))
        yield '    '
        yield str(t_5(environment.call(context, (undefined(name='msg') if l_0_msg is missing else l_0_msg), 'check_computed', (undefined(name='L') if l_0_L is missing else l_0_L), _loop_vars=_loop_vars)))
        yield ': '
        yield str(t_5(environment.getattr(l_1_r, 'computed')))
        yield '\n  '
        yield str(t_5(environment.getattr(l_1_r, 'note')))
        yield '\n\n'
    l_1_r = missing
    l_0_items = []
    context.vars['items'] = l_0_items
    context.exported_vars.add('items')
    for l_1_v in t_3((undefined(name='verdicts') if l_0_verdicts is missing else l_0_verdicts)):
        l_1_counts = resolve('counts')
        l_1__ = missing
        _loop_vars = {}
        pass
        l_1__ = environment.call(context, environment.getattr((undefined(name='items') if l_0_items is missing else l_0_items), 'append'), environment.call(context, (undefined(name='msg') if l_0_msg is missing else l_0_msg), 'check_summary_item', (undefined(name='L') if l_0_L is missing else l_0_L), n=environment.getitem((undefined(name='counts') if l_1_counts is missing else l_1_counts), l_1_v), verdict=environment.call(context, (undefined(name='msg') if l_0_msg is missing else l_0_msg), t_4(str_join(('check_verdict_', t_5(l_1_v), ))), (undefined(name='L') if l_0_L is missing else l_0_L), _loop_vars=_loop_vars), _loop_vars=_loop_vars), _loop_vars=_loop_vars)
        _loop_vars['_'] = l_1__
    l_1_v = l_1_counts = l_1__ = missing
    yield str(t_5(environment.call(context, (undefined(name='msg') if l_0_msg is missing else l_0_msg), 'check_summary', (undefined(name='L') if l_0_L is missing else l_0_L), total=(undefined(name='total') if l_0_total is missing else l_0_total), counts=t_2(t_7(context.eval_ctx, t_1((undefined(name='items') if l_0_items is missing else l_0_items), 'join'), (environment.call(context, (undefined(name='msg') if l_0_msg is missing else l_0_msg), 'check_summary_sep', (undefined(name='L') if l_0_L is missing else l_0_L)) if ((undefined(name='L') if l_0_L is missing else l_0_L) != 'both') else ', ')), 'join'))))
    yield '\n'
    for l_1_o in t_3((undefined(name='overridden') if l_0_overridden is missing else l_0_overridden)):
        _loop_vars = {}
        pass
        yield str(t_5(environment.call(context, (undefined(name='msg') if l_0_msg is missing else l_0_msg), 'check_summary_overridden', (undefined(name='L') if l_0_L is missing else l_0_L), kind=environment.call(context, (undefined(name='msg') if l_0_msg is missing else l_0_msg), t_4(str_join(('check_kind_', t_5(environment.getattr(l_1_o, 'kind')), ))), (undefined(name='L') if l_0_L is missing else l_0_L), _loop_vars=_loop_vars), id=environment.getattr(l_1_o, 'id'), file=environment.getattr(l_1_o, 'file'), n=environment.getattr(l_1_o, 'n'), _loop_vars=_loop_vars)))
        yield '\n'
    l_1_o = missing

blocks = {}
debug_info = '4=62&5=65&7=67&8=70&9=74&11=82&12=90&15=93&16=96&17=101&19=104&20=106&21=109'
