"""list.txt.j2 (text) compiled by Jinja 3.1.6; written by python -m derive._compiled_templates, do not edit."""
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'list.txt.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_lang = resolve('lang')
    l_0_rows = resolve('rows')
    l_0_L = missing
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
        t_4 = environment.filters['_budget_text']
    except KeyError:
        @internalcode
        def t_4(*unused):
            raise TemplateRuntimeError("No filter named '_budget_text' found.")
    try:
        t_5 = environment.filters['format']
    except KeyError:
        @internalcode
        def t_5(*unused):
            raise TemplateRuntimeError("No filter named 'format' found.")
    pass
    l_0_L = (undefined(name='lang') if l_0_lang is missing else l_0_lang)
    context.vars['L'] = l_0_L
    context.exported_vars.add('L')
    for l_1_r in t_3((undefined(name='rows') if l_0_rows is missing else l_0_rows)):
        l_1_pick = resolve('pick')
        l_1_name = missing
        _loop_vars = {}
        pass
        l_1_name = {'en': environment.getattr(l_1_r, 'name_en'), 'zh': environment.getattr(l_1_r, 'name_zh')}
        _loop_vars['name'] = l_1_name
        if (environment.getattr(l_1_r, 'kind') == 'quantity'):
            pass
            yield str(t_4(t_2(t_5('%-30s', environment.getattr(l_1_r, 'id')), 'format')))
            yield ' '
            yield str(t_4(t_2(t_5('%-9s', environment.getattr(l_1_r, 'kind')), 'format')))
            yield ' '
            yield str(t_4(t_2(t_5('%-8s', environment.getattr(l_1_r, 'unit')), 'format')))
            yield ' '
            yield str(t_4(environment.call(context, (undefined(name='pick') if l_1_pick is missing else l_1_pick), (undefined(name='name') if l_1_name is missing else l_1_name), (undefined(name='L') if l_0_L is missing else l_0_L), _loop_vars=_loop_vars)))
            yield '\n'
        elif (environment.getattr(l_1_r, 'kind') in ('relation', 'condition')):
            pass
            yield str(t_4(t_2(t_5('%-30s', environment.getattr(l_1_r, 'id')), 'format')))
            yield ' '
            yield str(t_4(t_2(t_5('%-9s', environment.getattr(l_1_r, 'kind')), 'format')))
            yield ' '
            yield str(t_4((environment.getattr(l_1_r, 'equation') if (environment.getattr(l_1_r, 'kind') == 'relation') else environment.getattr(l_1_r, 'require'))))
            yield '\n'
        else:
            pass
            yield str(t_4(t_2(t_5('%-30s', environment.getattr(l_1_r, 'id')), 'format')))
            yield ' '
            yield str(t_4(t_2(t_5('%-9s', environment.getattr(l_1_r, 'kind')), 'format')))
            yield ' '
            yield str(t_4(environment.call(context, (undefined(name='pick') if l_1_pick is missing else l_1_pick), (undefined(name='name') if l_1_name is missing else l_1_name), (undefined(name='L') if l_0_L is missing else l_0_L), _loop_vars=_loop_vars)))
            yield '\n'
    l_1_r = l_1_name = l_1_pick = missing

blocks = {}
debug_info = '2=44&3=47&4=52&5=54&6=56&7=64&8=66&10=74'
