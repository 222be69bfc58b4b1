"""solution.fragment.tex.j2 (tex) compiled by Jinja 3.1.6; written by python -m derive._compiled_templates, do not edit."""
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'solution.fragment.tex.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_lang = resolve('lang')
    l_0_s = resolve('s')
    l_0_msg = resolve('msg')
    l_0_L = l_0_words = missing
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
        t_6 = environment.filters['replace']
    except KeyError:
        @internalcode
        def t_6(*unused):
            raise TemplateRuntimeError("No filter named 'replace' found.")
    try:
        t_7 = environment.tests['defined']
    except KeyError:
        @internalcode
        def t_7(*unused):
            raise TemplateRuntimeError("No test named 'defined' found.")
    pass
    l_0_L = (undefined(name='lang') if l_0_lang is missing else l_0_lang)
    context.vars['L'] = l_0_L
    context.exported_vars.add('L')
    def macro(l_1_texts):
        t_8 = []
        l_1_pick = resolve('pick')
        if l_1_texts is missing:
            l_1_texts = undefined("parameter 'texts' was not provided", name='texts')
        pass
        t_8.extend((
            '\\text{',
            str(t_5(environment.call(context, (undefined(name='pick') if l_1_pick is missing else l_1_pick), l_1_texts, (undefined(name='L') if l_0_L is missing else l_0_L)))),
            '}',
        ))
        return concat(t_8)
    context.exported_vars.add('words')
    context.vars['words'] = l_0_words = Macro(environment, macro, 'words', ('texts',), False, False, False, context.eval_ctx.autoescape)
    yield '$$\n\\begin{aligned}\n'
    l_1_loop = missing
    for l_1_st, l_1_loop in LoopContext(t_3(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'steps')), undefined):
        l_1_title = resolve('title')
        l_1_pick = resolve('pick')
        l_1_u = missing
        _loop_vars = {}
        pass
        l_1_u = environment.getattr(environment.getitem(environment.getattr(l_1_st, 'solved_for'), 0), 'symbol')
        _loop_vars['u'] = l_1_u
        if (environment.getattr(l_1_st, 'kind') in ('approximate',)):
            pass
            l_1_title = environment.call(context, (undefined(name='msg') if l_0_msg is missing else l_0_msg), 'step_approximate', (undefined(name='L') if l_0_L is missing else l_0_L), assumption=environment.getattr(l_1_st, 'assumption'), _loop_vars=_loop_vars)
            _loop_vars['title'] = l_1_title
        elif (environment.getattr(l_1_st, 'kind') != 'round'):
            pass
            l_1_title = environment.call(context, (undefined(name='pick') if l_1_pick is missing else l_1_pick), environment.getattr(environment.getitem(environment.getattr(l_1_st, 'relations'), 0), 'name'), (undefined(name='L') if l_0_L is missing else l_0_L), _loop_vars=_loop_vars)
            _loop_vars['title'] = l_1_title
        elif (environment.getattr(l_1_st, 'multiple') > 1):
            pass
            l_1_title = environment.call(context, (undefined(name='msg') if l_0_msg is missing else l_0_msg), t_4(str_join(('step_round_multiple_', t_5(environment.getattr(l_1_st, 'direction')), ))), (undefined(name='L') if l_0_L is missing else l_0_L), n=environment.getattr(l_1_st, 'multiple'), _loop_vars=_loop_vars)
            _loop_vars['title'] = l_1_title
        else:
            pass
            l_1_title = environment.call(context, (undefined(name='msg') if l_0_msg is missing else l_0_msg), t_4(str_join(('step_round_', t_5(environment.getattr(l_1_st, 'direction')), ))), (undefined(name='L') if l_0_L is missing else l_0_L), name=environment.call(context, (undefined(name='pick') if l_1_pick is missing else l_1_pick), environment.getattr(environment.getitem(environment.getattr(l_1_st, 'solved_for'), 0), 'name'), (undefined(name='L') if l_0_L is missing else l_0_L), _loop_vars=_loop_vars), _loop_vars=_loop_vars)
            _loop_vars['title'] = l_1_title
        yield '& \\text{'
        yield str(t_5(environment.call(context, (undefined(name='msg') if l_0_msg is missing else l_0_msg), 'w_step_n', (undefined(name='L') if l_0_L is missing else l_0_L), n=environment.getattr(l_1_st, 'index'), _loop_vars=_loop_vars)))
        yield ': '
        yield str(t_5((undefined(name='title') if l_1_title is missing else l_1_title)))
        yield '} \\\\\n'
        if (environment.getattr(l_1_st, 'kind') == 'interval'):
            pass
            yield '& '
            yield str(t_5(environment.getitem(environment.getattr(l_1_st, 'equations_latex'), 0)))
            yield ' \\\\\n& '
            yield str(t_5(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'answer'), 'interval_latex')))
            yield ' \\\\\n'
        elif (environment.getattr(l_1_st, 'kind') == 'approximate'):
            pass
            yield str(t_5(t_2(t_6(context.eval_ctx, t_1(environment.getitem(environment.getattr(l_1_st, 'equations_latex'), 0), 'replace'), ' = ', ' &= ', 1), 'replace')))
            yield ' \\\\\n'
            yield str(t_5(t_2(t_6(context.eval_ctx, t_1(environment.getitem(environment.getattr(l_1_st, 'solved_latex'), 0), 'replace'), ' = ', ' &\\approx ', 1), 'replace')))
            if environment.getattr(l_1_st, 'results'):
                pass
                yield ' = '
                yield str(t_5(environment.getattr(environment.getitem(environment.getattr(l_1_st, 'results'), 0), 'latex')))
            yield ' \\\\\n'
        elif (environment.getattr(l_1_st, 'kind') in ('relation', 'system')):
            pass
            l_2_loop = missing
            for l_2_e, l_2_loop in LoopContext(t_3(environment.getattr(l_1_st, 'solved_latex')), undefined):
                _loop_vars = {}
                pass
                yield str(t_5(t_2(t_6(context.eval_ctx, t_1(l_2_e, 'replace'), ' = ', ' &= ', 1), 'replace')))
                if t_7(environment.getitem(environment.getattr(l_1_st, 'substituted_latex'), environment.getattr(l_2_loop, 'index0'))):
                    pass
                    yield ' = '
                    yield str(t_5(environment.getitem(environment.getattr(l_1_st, 'substituted_latex'), environment.getattr(l_2_loop, 'index0'))))
                    if environment.getitem(environment.getattr(l_1_st, 'cancelled_latex'), environment.getattr(l_2_loop, 'index0')):
                        pass
                        yield ' = '
                        yield str(t_5(environment.getitem(environment.getattr(l_1_st, 'cancelled_latex'), environment.getattr(l_2_loop, 'index0'))))
                if t_7(environment.getitem(environment.getattr(l_1_st, 'results'), environment.getattr(l_2_loop, 'index0'))):
                    pass
                    yield ' = '
                    yield str(t_5(environment.getattr(environment.getitem(environment.getattr(l_1_st, 'results'), environment.getattr(l_2_loop, 'index0')), 'latex')))
                yield ' \\\\\n'
            l_2_loop = l_2_e = missing
        elif (environment.getattr(l_1_st, 'kind') == 'bound'):
            pass
            for l_2_e in t_3(environment.getattr(l_1_st, 'composed_latex')):
                _loop_vars = {}
                pass
                yield '& '
                yield str(t_5(l_2_e))
                yield ' \\\\\n'
            l_2_e = missing
            yield str(t_5((undefined(name='u') if l_1_u is missing else l_1_u)))
            yield ' &'
            yield str(t_5(environment.getattr(l_1_st, 'op_latex')))
            yield ' '
            yield str(t_5(environment.getitem(environment.getattr(l_1_st, 'isolated_rhs_latex'), 0)))
            if environment.getattr(l_1_st, 'substituted_latex'):
                pass
                yield ' = '
                yield str(t_5(environment.getitem(environment.getattr(l_1_st, 'substituted_latex'), 0)))
                if environment.getitem(environment.getattr(l_1_st, 'cancelled_latex'), 0):
                    pass
                    yield ' = '
                    yield str(t_5(environment.getitem(environment.getattr(l_1_st, 'cancelled_latex'), 0)))
            if environment.getattr(l_1_st, 'results'):
                pass
                yield ' = '
                yield str(t_5(environment.getattr(environment.getitem(environment.getattr(l_1_st, 'results'), 0), 'latex')))
            yield ' \\\\\n'
        else:
            pass
            yield str(t_5((undefined(name='u') if l_1_u is missing else l_1_u)))
            yield ' &= '
            yield str(t_5(environment.getattr(l_1_st, 'rounding_latex')))
            yield ' \\\\\n'
    l_1_loop = l_1_st = l_1_u = l_1_title = l_1_pick = missing
    yield '& \\text{'
    yield str(t_5(environment.call(context, (undefined(name='msg') if l_0_msg is missing else l_0_msg), 'w_answer', (undefined(name='L') if l_0_L is missing else l_0_L))))
    yield '} \\\\\n'
    if environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'answer'), 'is_interval'):
        pass
        yield '& '
        yield str(t_5(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'answer'), 'statement_latex')))
    else:
        pass
        yield str(t_5(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'answer'), 'symbol')))
        yield ' &'
        yield str(t_5(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'answer'), 'op_latex')))
        yield ' '
        yield str(t_5(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'answer'), 'latex')))
    yield '\\end{aligned}\n$$\n'

blocks = {}
debug_info = '4=57&5=60&8=76&9=82&10=84&11=86&12=88&13=90&14=92&15=94&17=98&19=101&20=105&21=108&22=110&23=112&24=114&25=116&26=122&27=125&28=128&30=143&31=145&32=149&34=152&36=172&39=178&40=180'
