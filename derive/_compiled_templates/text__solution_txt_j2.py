"""solution.txt.j2 (text) compiled by Jinja 3.1.6; written by python -m derive._compiled_templates, do not edit."""
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'solution.txt.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_lang = resolve('lang')
    l_0_s = resolve('s')
    l_0_pick = resolve('pick')
    l_0_regime_name = resolve('regime_name')
    l_0_units = resolve('units')
    l_0_L = l_0_t = l_0_a = missing
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
        t_6 = environment.filters['join']
    except KeyError:
        @internalcode
        def t_6(*unused):
            raise TemplateRuntimeError("No filter named 'join' found.")
    try:
        t_7 = environment.filters['length']
    except KeyError:
        @internalcode
        def t_7(*unused):
            raise TemplateRuntimeError("No filter named 'length' found.")
    try:
        t_8 = environment.filters['localize']
    except KeyError:
        @internalcode
        def t_8(*unused):
            raise TemplateRuntimeError("No filter named 'localize' found.")
    try:
        t_9 = environment.filters['map']
    except KeyError:
        @internalcode
        def t_9(*unused):
            raise TemplateRuntimeError("No filter named 'map' found.")
    try:
        t_10 = environment.filters['prose']
    except KeyError:
        @internalcode
        def t_10(*unused):
            raise TemplateRuntimeError("No filter named 'prose' found.")
    try:
        t_11 = environment.filters['replace']
    except KeyError:
        @internalcode
        def t_11(*unused):
            raise TemplateRuntimeError("No filter named 'replace' found.")
    try:
        t_12 = environment.tests['defined']
    except KeyError:
        @internalcode
        def t_12(*unused):
            raise TemplateRuntimeError("No test named 'defined' found.")
    pass
    l_0_L = (undefined(name='lang') if l_0_lang is missing else l_0_lang)
    context.vars['L'] = l_0_L
    context.exported_vars.add('L')
    def macro(l_1_key, l_1_kwargs):
        t_13 = []
        l_1_msg = resolve('msg')
        if l_1_key is missing:
            l_1_key = undefined("parameter 'key' was not provided", name='key')
        pass
        t_13.append(
            str(t_5(environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), l_1_key, (undefined(name='L') if l_0_L is missing else l_0_L), **l_1_kwargs))),
        )
        return concat(t_13)
    context.exported_vars.add('t')
    context.vars['t'] = l_0_t = Macro(environment, macro, 't', ('key',), True, False, False, context.eval_ctx.autoescape)
    l_0_a = environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'answer')
    context.vars['a'] = l_0_a
    context.exported_vars.add('a')
    if (environment.getattr((undefined(name='a') if l_0_a is missing else l_0_a), 'interval_text') and (not environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'bound'))):
        pass
        yield str(t_5(environment.getattr((undefined(name='a') if l_0_a is missing else l_0_a), 'interval_text')))
        yield '    ('
        yield str(t_5(environment.call(context, (undefined(name='pick') if l_0_pick is missing else l_0_pick), environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'target'), 'name'), (undefined(name='L') if l_0_L is missing else l_0_L))))
        yield ')\n'
    elif environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'bound'):
        pass
        yield str(t_5(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'target'), 'id')))
        yield ' '
        yield str(t_5(environment.getattr((undefined(name='a') if l_0_a is missing else l_0_a), 'op')))
        yield ' '
        yield str(t_5(environment.getattr((undefined(name='a') if l_0_a is missing else l_0_a), 'text')))
        yield '    ('
        yield str(t_5(environment.call(context, (undefined(name='pick') if l_0_pick is missing else l_0_pick), environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'target'), 'name'), (undefined(name='L') if l_0_L is missing else l_0_L))))
        if environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'multiple_of'):
            pass
            yield '; '
            yield str(t_5(environment.call(context, (undefined(name='t') if l_0_t is missing else l_0_t), 'multiple_of', n=environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'multiple_of'))))
        yield ')\n'
    else:
        pass
        yield str(t_5(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'target'), 'id')))
        yield ' = '
        yield str(t_5(environment.getattr((undefined(name='a') if l_0_a is missing else l_0_a), 'text')))
        if (environment.getattr((undefined(name='a') if l_0_a is missing else l_0_a), 'base_text') and (environment.getattr((undefined(name='a') if l_0_a is missing else l_0_a), 'base_text') != environment.getattr((undefined(name='a') if l_0_a is missing else l_0_a), 'text'))):
            pass
            yield ' ('
            yield str(t_5(environment.getattr((undefined(name='a') if l_0_a is missing else l_0_a), 'base_text')))
            yield ')'
        yield '    ('
        yield str(t_5(environment.call(context, (undefined(name='pick') if l_0_pick is missing else l_0_pick), environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'target'), 'name'), (undefined(name='L') if l_0_L is missing else l_0_L))))
        yield ')\n'
    if environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'regime'):
        pass
        l_0_regime_name = (environment.call(context, (undefined(name='t') if l_0_t is missing else l_0_t), 'regime_balanced', regime=environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'regime'), 'name'), other=environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'regime'), 'other')) if environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'regime'), 'balanced') else environment.call(context, (undefined(name='pick') if l_0_pick is missing else l_0_pick), environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'regime'), 'name'), (undefined(name='L') if l_0_L is missing else l_0_L)))
        context.vars['regime_name'] = l_0_regime_name
        context.exported_vars.add('regime_name')
        yield '  '
        yield str(t_5(environment.call(context, (undefined(name='t') if l_0_t is missing else l_0_t), 'regime')))
        yield ': '
        yield str(t_5((undefined(name='regime_name') if l_0_regime_name is missing else l_0_regime_name)))
        yield '\n'
    if ((environment.getattr((undefined(name='a') if l_0_a is missing else l_0_a), 'formula_text') and (environment.getattr((undefined(name='a') if l_0_a is missing else l_0_a), 'formula_text') != environment.getattr((undefined(name='a') if l_0_a is missing else l_0_a), 'exact'))) and (environment.getattr((undefined(name='a') if l_0_a is missing else l_0_a), 'formula_text') != environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'target'), 'id'))):
        pass
        yield '  '
        yield str(t_5(environment.call(context, (undefined(name='t') if l_0_t is missing else l_0_t), 'symbolic_answer')))
        yield ': '
        yield str(t_5(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'target'), 'id')))
        yield ' '
        yield str(t_5(environment.getattr((undefined(name='a') if l_0_a is missing else l_0_a), 'op')))
        yield ' '
        yield str(t_5(environment.getattr((undefined(name='a') if l_0_a is missing else l_0_a), 'formula_text')))
        yield '\n'
    if environment.getattr((undefined(name='a') if l_0_a is missing else l_0_a), 'reduced_text'):
        pass
        yield '  '
        yield str(t_5(environment.call(context, (undefined(name='t') if l_0_t is missing else l_0_t), 'with_constants')))
        yield ': '
        yield str(t_5(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'target'), 'id')))
        yield ' '
        yield str(t_5(environment.getattr((undefined(name='a') if l_0_a is missing else l_0_a), 'op')))
        yield ' '
        yield str(t_5(environment.getattr((undefined(name='a') if l_0_a is missing else l_0_a), 'reduced_text')))
        yield '\n'
    if environment.getattr((undefined(name='a') if l_0_a is missing else l_0_a), 'rounded'):
        pass
        yield '  '
        yield str(t_5(environment.call(context, (undefined(name='t') if l_0_t is missing else l_0_t), ('optimum_before_rounding' if environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'optimize') else 'bound_before_rounding'))))
        yield ': '
        yield str(t_5(environment.getattr((undefined(name='a') if l_0_a is missing else l_0_a), 'exact_text')))
        yield '\n'
    if environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'steps'):
        pass
        yield '\n'
        yield str(t_5(environment.call(context, (undefined(name='t') if l_0_t is missing else l_0_t), 'steps')))
        yield '\n'
    l_1_loop = missing
    for l_1_st, l_1_loop in LoopContext(t_3(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'steps')), undefined):
        _loop_vars = {}
        pass
        if (environment.getattr(l_1_st, 'kind') == 'relation'):
            pass
            yield '  '
            yield str(t_5(environment.getattr(l_1_st, 'index')))
            yield '. '
            if environment.getattr(l_1_st, 'inverse'):
                pass
                yield str(t_5(environment.call(context, (undefined(name='t') if l_0_t is missing else l_0_t), 'step_inverse', relation=environment.getattr(environment.getitem(environment.getattr(l_1_st, 'relations'), 0), 'name'), unknown=environment.getattr(environment.getitem(environment.getattr(l_1_st, 'solved_for'), 0), 'id'), _loop_vars=_loop_vars)))
            else:
                pass
                yield str(t_5(environment.call(context, (undefined(name='t') if l_0_t is missing else l_0_t), 'step_relation', relation=environment.getattr(environment.getitem(environment.getattr(l_1_st, 'relations'), 0), 'name'), _loop_vars=_loop_vars)))
            yield '  ['
            yield str(t_5(environment.getattr(environment.getitem(environment.getattr(l_1_st, 'relations'), 0), 'id')))
            yield ']\n       '
            yield str(t_5(environment.getitem(environment.getattr(l_1_st, 'equations_text'), 0)))
            yield '\n'
            if environment.getattr(l_1_st, 'inverse'):
                pass
                yield '       '
                yield str(t_5(environment.getitem(environment.getattr(l_1_st, 'solved_text'), 0)))
                yield '\n'
            if (environment.getattr(l_1_st, 'substituted_text') and (not (environment.getattr(l_1_st, 'results') and (environment.call(context, environment.getattr(environment.getitem(environment.getattr(l_1_st, 'substituted_text'), 0), 'strip'), '()', _loop_vars=_loop_vars) == environment.getattr(environment.getitem(environment.getattr(l_1_st, 'results'), 0), 'text'))))):
                pass
                yield '       = '
                yield str(t_5(environment.getitem(environment.getattr(l_1_st, 'substituted_text'), 0)))
                yield '\n'
            if (environment.getattr(l_1_st, 'cancelled_text') and environment.getitem(environment.getattr(l_1_st, 'cancelled_text'), 0)):
                pass
                yield '       = '
                yield str(t_5(environment.getitem(environment.getattr(l_1_st, 'cancelled_text'), 0)))
                yield '\n'
            if environment.getattr(l_1_st, 'results'):
                pass
                yield '       = '
                yield str(t_5(environment.getattr(environment.getitem(environment.getattr(l_1_st, 'results'), 0), 'text')))
                yield '\n'
            if environment.getattr(l_1_st, 'regime'):
                pass
                yield '       '
                yield str(t_5(environment.call(context, (undefined(name='t') if l_0_t is missing else l_0_t), 'regime_holds', regime=environment.getattr(environment.getattr(l_1_st, 'regime'), 'name'), when=environment.getattr(environment.getattr(l_1_st, 'regime'), 'when_text'), _loop_vars=_loop_vars)))
                yield '\n'
        elif (environment.getattr(l_1_st, 'kind') == 'system'):
            pass
            yield '  '
            yield str(t_5(environment.getattr(l_1_st, 'index')))
            yield '. '
            yield str(t_5(environment.call(context, (undefined(name='t') if l_0_t is missing else l_0_t), 'step_system', relations=t_2(t_6(context.eval_ctx, t_1(t_2(t_9(context, t_1(environment.getattr(l_1_st, 'relations'), 'map'), attribute='id'), 'map'), 'join'), ', '), 'join'), unknowns=t_2(t_6(context.eval_ctx, t_1(t_2(t_9(context, t_1(environment.getattr(l_1_st, 'solved_for'), 'map'), attribute='id'), 'map'), 'join'), ', '), 'join'), _loop_vars=_loop_vars)))
            yield '\n'
            for l_2_eq in t_3(environment.getattr(l_1_st, 'equations_text')):
                _loop_vars = {}
                pass
                yield '       '
                yield str(t_5(l_2_eq))
                yield '\n'
            l_2_eq = missing
            l_2_loop = missing
            for l_2_eq, l_2_loop in LoopContext(t_3(environment.getattr(l_1_st, 'solved_text')), undefined):
                _loop_vars = {}
                pass
                yield '       '
                yield str(t_5(l_2_eq))
                if t_12(environment.getitem(environment.getattr(l_1_st, 'results'), environment.getattr(l_2_loop, 'index0'))):
                    pass
                    yield ' = '
                    yield str(t_5(environment.getattr(environment.getitem(environment.getattr(l_1_st, 'results'), environment.getattr(l_2_loop, 'index0')), 'text')))
                yield '\n'
            l_2_loop = l_2_eq = missing
        elif (environment.getattr(l_1_st, 'kind') == 'bound'):
            pass
            yield '  '
            yield str(t_5(environment.getattr(l_1_st, 'index')))
            yield '. '
            yield str(t_5(environment.call(context, (undefined(name='t') if l_0_t is missing else l_0_t), 'step_bound', name=environment.getattr(environment.getitem(environment.getattr(l_1_st, 'solved_for'), 0), 'id'), _loop_vars=_loop_vars)))
            yield '  ['
            yield str(t_5(t_2(t_6(context.eval_ctx, t_1(t_2(t_9(context, t_1(environment.getattr(l_1_st, 'relations'), 'map'), attribute='id'), 'map'), 'join'), ', '), 'join')))
            yield ']\n'
            for l_2_eq in t_3(environment.getattr(l_1_st, 'equations_text')):
                _loop_vars = {}
                pass
                yield '       '
                yield str(t_5(l_2_eq))
                yield '\n'
            l_2_eq = missing
            for l_2_eq in t_3(environment.getattr(l_1_st, 'composed_text')):
                _loop_vars = {}
                pass
                yield '       '
                yield str(t_5(l_2_eq))
                yield '\n'
            l_2_eq = missing
            for l_2_eq in t_3(environment.getattr(l_1_st, 'isolated_text')):
                _loop_vars = {}
                pass
                yield '       '
                yield str(t_5(l_2_eq))
                yield '\n'
            l_2_eq = missing
            if environment.getattr(l_1_st, 'substituted_text'):
                pass
                yield '       '
                yield str(t_5(environment.getattr(environment.getitem(environment.getattr(l_1_st, 'solved_for'), 0), 'id')))
                yield ' '
                yield str(t_5(environment.getattr(l_1_st, 'op')))
                yield ' '
                yield str(t_5(environment.getitem(environment.getattr(l_1_st, 'substituted_text'), 0)))
                yield '\n'
            if (environment.getattr(l_1_st, 'cancelled_text') and environment.getitem(environment.getattr(l_1_st, 'cancelled_text'), 0)):
                pass
                yield '       '
                yield str(t_5(environment.call_binop(context, '*', ' ', environment.call_binop(context, '+', t_2(t_7(t_1(environment.getattr(environment.getitem(environment.getattr(l_1_st, 'solved_for'), 0), 'id'), 'length')), 'length'), t_2(t_7(t_1(environment.getattr(l_1_st, 'op'), 'length')), 'length')))))
                yield '= '
                yield str(t_5(environment.getitem(environment.getattr(l_1_st, 'cancelled_text'), 0)))
                yield '\n'
            if environment.getattr(l_1_st, 'results'):
                pass
                yield '       '
                yield str(t_5(environment.getattr(environment.getitem(environment.getattr(l_1_st, 'solved_for'), 0), 'id')))
                yield ' '
                yield str(t_5(environment.getattr(l_1_st, 'op')))
                yield ' '
                yield str(t_5(environment.getattr(environment.getitem(environment.getattr(l_1_st, 'results'), 0), 'text')))
                yield '\n'
        elif (environment.getattr(l_1_st, 'kind') == 'interval'):
            pass
            yield '  '
            yield str(t_5(environment.getattr(l_1_st, 'index')))
            yield '. '
            yield str(t_5(environment.call(context, (undefined(name='t') if l_0_t is missing else l_0_t), 'step_interval', relation=environment.getattr(environment.getitem(environment.getattr(l_1_st, 'relations'), 0), 'name'), unknown=environment.getattr(environment.getitem(environment.getattr(l_1_st, 'solved_for'), 0), 'id'), _loop_vars=_loop_vars)))
            yield '  ['
            yield str(t_5(environment.getattr(environment.getitem(environment.getattr(l_1_st, 'relations'), 0), 'id')))
            yield ']\n       '
            yield str(t_5(environment.getitem(environment.getattr(l_1_st, 'equations_text'), 0)))
            yield '\n       '
            yield str(t_5(environment.call(context, (undefined(name='t') if l_0_t is missing else l_0_t), 'interval_rounded', k=environment.getattr(l_1_st, 'rounded'), _loop_vars=_loop_vars)))
            yield '\n       '
            yield str(t_5(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'answer'), 'interval_text')))
            yield '\n'
        elif (environment.getattr(l_1_st, 'kind') == 'approximate'):
            pass
            yield '  '
            yield str(t_5(environment.getattr(l_1_st, 'index')))
            yield '. '
            yield str(t_5(environment.call(context, (undefined(name='t') if l_0_t is missing else l_0_t), 'step_approximate', assumption=environment.getattr(l_1_st, 'assumption'), _loop_vars=_loop_vars)))
            yield '\n       '
            yield str(t_5(environment.getitem(environment.getattr(l_1_st, 'equations_text'), 0)))
            yield '\n       '
            yield str(t_5(t_2(t_11(context.eval_ctx, t_1(environment.getitem(environment.getattr(l_1_st, 'solved_text'), 0), 'replace'), ' = ', ' ≈ ', 1), 'replace')))
            yield '\n'
            if environment.getattr(l_1_st, 'substituted_text'):
                pass
                yield '       ≈ '
                yield str(t_5(environment.getitem(environment.getattr(l_1_st, 'substituted_text'), 0)))
                yield '\n'
            if environment.getattr(l_1_st, 'results'):
                pass
                yield '       = '
                yield str(t_5(environment.getattr(environment.getitem(environment.getattr(l_1_st, 'results'), 0), 'text')))
                yield '\n'
        elif (environment.getattr(l_1_st, 'kind') == 'optimum'):
            pass
            yield '  '
            yield str(t_5(environment.getattr(l_1_st, 'index')))
            yield '. '
            yield str(t_5(environment.call(context, (undefined(name='t') if l_0_t is missing else l_0_t), t_4(str_join(('step_optimum_', t_5(environment.getattr(l_1_st, 'direction')), ))), name=environment.getattr(environment.getattr(l_1_st, 'objective'), 'id'), _loop_vars=_loop_vars)))
            yield '  ['
            yield str(t_5(environment.getattr(environment.getitem(environment.getattr(l_1_st, 'relations'), 0), 'id')))
            yield ']\n'
            for l_2_line in t_3(environment.getattr(l_1_st, 'optimum_text')):
                _loop_vars = {}
                pass
                yield '       '
                yield str(t_5(l_2_line))
                yield '\n'
            l_2_line = missing
        elif ((environment.getattr(l_1_st, 'kind') == 'round') and (environment.getattr(l_1_st, 'direction') == 'optimum')):
            pass
            if (environment.getattr(l_1_st, 'multiple') > 1):
                pass
                yield '  '
                yield str(t_5(environment.getattr(l_1_st, 'index')))
                yield '. '
                yield str(t_5(environment.call(context, (undefined(name='t') if l_0_t is missing else l_0_t), 'step_round_multiple_optimum', n=environment.getattr(l_1_st, 'multiple'), _loop_vars=_loop_vars)))
                yield '\n'
            else:
                pass
                yield '  '
                yield str(t_5(environment.getattr(l_1_st, 'index')))
                yield '. '
                yield str(t_5(environment.call(context, (undefined(name='t') if l_0_t is missing else l_0_t), 'step_round_optimum', name=environment.getattr(environment.getitem(environment.getattr(l_1_st, 'solved_for'), 0), 'id'), _loop_vars=_loop_vars)))
                yield '\n'
            for l_2_line in t_3(environment.getattr(l_1_st, 'rounding_text_lines')):
                _loop_vars = {}
                pass
                yield '       '
                yield str(t_5(l_2_line))
                yield '\n'
            l_2_line = missing
            yield '       '
            yield str(t_5(environment.getattr(environment.getitem(environment.getattr(l_1_st, 'solved_for'), 0), 'id')))
            yield ' = '
            yield str(t_5(environment.getattr(l_1_st, 'rounding_text')))
            yield '\n'
        elif (environment.getattr(l_1_st, 'kind') == 'round'):
            pass
            if (environment.getattr(l_1_st, 'multiple') > 1):
                pass
                yield '  '
                yield str(t_5(environment.getattr(l_1_st, 'index')))
                yield '. '
                yield str(t_5(environment.call(context, (undefined(name='t') if l_0_t is missing else l_0_t), t_4(str_join(('step_round_multiple_', t_5(environment.getattr(l_1_st, 'direction')), ))), n=environment.getattr(l_1_st, 'multiple'), _loop_vars=_loop_vars)))
                yield '\n'
            else:
                pass
                yield '  '
                yield str(t_5(environment.getattr(l_1_st, 'index')))
                yield '. '
                yield str(t_5(environment.call(context, (undefined(name='t') if l_0_t is missing else l_0_t), t_4(str_join(('step_round_', t_5(environment.getattr(l_1_st, 'direction')), ))), name=environment.getattr(environment.getitem(environment.getattr(l_1_st, 'solved_for'), 0), 'id'), _loop_vars=_loop_vars)))
                yield '\n'
            yield '       '
            yield str(t_5(environment.getattr(environment.getitem(environment.getattr(l_1_st, 'solved_for'), 0), 'id')))
            yield ' = '
            yield str(t_5(environment.getattr(environment.getitem(environment.getattr(l_1_st, 'results'), 0), 'text')))
            yield '\n'
    l_1_loop = l_1_st = missing
    yield '\n'
    yield str(t_5(environment.call(context, (undefined(name='t') if l_0_t is missing else l_0_t), 'given')))
    yield '\n'
    for l_1_g in t_3(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'given')):
        _loop_vars = {}
        pass
        yield '  '
        yield str(t_5(environment.getattr(l_1_g, 'id')))
        yield ' = '
        yield str(t_5(environment.getattr(l_1_g, 'value_text')))
        yield '    '
        if (environment.getattr(l_1_g, 'origin') == 'given'):
            pass
            yield str(t_5(environment.call(context, (undefined(name='t') if l_0_t is missing else l_0_t), 'origin_given', _loop_vars=_loop_vars)))
        elif (environment.getattr(l_1_g, 'origin') == 'default'):
            pass
            yield str(t_5(environment.call(context, (undefined(name='t') if l_0_t is missing else l_0_t), 'origin_default', _loop_vars=_loop_vars)))
        else:
            pass
            yield str(t_5(environment.call(context, (undefined(name='t') if l_0_t is missing else l_0_t), t_4(str_join(('origin_', t_5(environment.getattr(l_1_g, 'origin')), ))), preset=environment.getattr(l_1_g, 'preset'), _loop_vars=_loop_vars)))
        if environment.getattr(l_1_g, 'source'):
            pass
            yield '; '
            yield str(t_5(environment.getattr(environment.getattr(l_1_g, 'source'), 'ref')))
            if environment.getattr(environment.getattr(l_1_g, 'source'), 'locator'):
                pass
                yield ', '
                yield str(t_5(t_2(t_8(t_1(environment.getattr(environment.getattr(l_1_g, 'source'), 'locator'), 'localize'), (undefined(name='L') if l_0_L is missing else l_0_L)), 'localize')))
        if environment.getattr(l_1_g, 'note'):
            pass
            yield '; '
            yield str(t_5(t_2(t_10(t_1((environment.getattr(l_1_g, 'note_zh') if (((undefined(name='L') if l_0_L is missing else l_0_L) == 'zh') and environment.getattr(l_1_g, 'note_zh')) else (t_4(str_join((t_5(environment.getattr(l_1_g, 'note_zh')), ' / ', t_5(environment.getattr(l_1_g, 'note')), ))) if (((undefined(name='L') if l_0_L is missing else l_0_L) == 'both') and environment.getattr(l_1_g, 'note_zh')) else environment.getattr(l_1_g, 'note'))), 'prose')), 'prose')))
        yield '\n'
    l_1_g = missing
    if environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'notes'):
        pass
        yield '\n'
        yield str(t_5(environment.call(context, (undefined(name='t') if l_0_t is missing else l_0_t), 'notes')))
        yield '\n'
        for l_1_n in t_3(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'notes')):
            l_1_msg = resolve('msg')
            _loop_vars = {}
            pass
            yield '  - '
            yield str(t_5(environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), environment.getattr(l_1_n, 'message'), (undefined(name='L') if l_0_L is missing else l_0_L), _loop_vars=_loop_vars, **(environment.getattr(l_1_n, 'data_text') or environment.getattr(l_1_n, 'data')))))
            yield '\n'
        l_1_n = l_1_msg = missing
    yield '\n'
    yield str(t_5(environment.call(context, (undefined(name='t') if l_0_t is missing else l_0_t), 'check')))
    yield ': '
    yield str(t_5((t_4(str_join((t_5(environment.call(context, (undefined(name='t') if l_0_t is missing else l_0_t), 'check_ok')), ' (', t_5(t_2(t_7(t_1(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'checks'), 'length')), 'length')), ')', ))) if environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'checks') else environment.call(context, (undefined(name='t') if l_0_t is missing else l_0_t), 'check_none'))))
    yield '\n'
    if environment.getattr((undefined(name='a') if l_0_a is missing else l_0_a), 'prefix_note'):
        pass
        yield str(t_5(environment.call(context, (undefined(name='t') if l_0_t is missing else l_0_t), 'unit')))
        yield ': '
        yield str(t_5(environment.call(context, (undefined(name='t') if l_0_t is missing else l_0_t), t_4(str_join(('prefix_', t_5((undefined(name='units') if l_0_units is missing else l_0_units)), ))))))
        yield '\n'

blocks = {}
debug_info = '3=89&4=92&5=104&6=107&7=109&8=113&9=115&11=129&13=140&14=142&15=146&17=150&18=153&20=161&21=164&23=172&24=175&26=179&28=182&30=185&31=188&32=191&33=202&34=204&35=207&37=209&38=212&40=214&41=217&43=219&44=222&46=224&47=227&49=229&50=232&51=236&52=240&54=244&55=248&58=255&59=258&60=264&61=268&63=271&64=275&66=278&67=282&69=285&70=288&72=294&73=297&75=301&76=304&78=310&79=313&80=319&81=321&82=323&83=325&84=328&85=332&86=334&87=336&88=339&90=341&91=344&93=346&94=349&95=355&96=359&98=362&99=364&100=367&102=374&104=378&105=382&107=386&108=390&109=392&110=395&112=402&114=407&118=413&119=415&120=419&123=446&125=449&126=451&127=456&131=460&132=464&133=466'
