"""show.txt.j2 (text) compiled by Jinja 3.1.6; written by python -m derive._compiled_templates, do not edit."""
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'show.txt.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_lang = resolve('lang')
    l_0_rows = resolve('rows')
    l_0_L = l_0_t = missing
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
        t_5 = environment.filters['join']
    except KeyError:
        @internalcode
        def t_5(*unused):
            raise TemplateRuntimeError("No filter named 'join' found.")
    try:
        t_6 = environment.tests['defined']
    except KeyError:
        @internalcode
        def t_6(*unused):
            raise TemplateRuntimeError("No test named 'defined' found.")
    pass
    l_0_L = (undefined(name='lang') if l_0_lang is missing else l_0_lang)
    context.vars['L'] = l_0_L
    context.exported_vars.add('L')
    def macro(l_1_key, l_1_kwargs):
        t_7 = []
        l_1_msg = resolve('msg')
        if l_1_key is missing:
            l_1_key = undefined("parameter 'key' was not provided", name='key')
        pass
        t_7.append(
            str(t_4(environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), l_1_key, (undefined(name='L') if l_0_L is missing else l_0_L), **l_1_kwargs))),
        )
        return concat(t_7)
    context.exported_vars.add('t')
    context.vars['t'] = l_0_t = Macro(environment, macro, 't', ('key',), True, False, False, context.eval_ctx.autoescape)
    for l_1_r in t_3((undefined(name='rows') if l_0_rows is missing else l_0_rows)):
        l_1_pick = resolve('pick')
        l_1_name = missing
        _loop_vars = {}
        pass
        l_1_name = {'en': environment.getattr(l_1_r, 'name_en'), 'zh': environment.getattr(l_1_r, 'name_zh')}
        _loop_vars['name'] = l_1_name
        yield str(t_4(environment.getattr(l_1_r, 'id')))
        yield ' ('
        yield str(t_4(environment.getattr(l_1_r, 'kind')))
        yield '): '
        yield str(t_4(environment.call(context, (undefined(name='pick') if l_1_pick is missing else l_1_pick), (undefined(name='name') if l_1_name is missing else l_1_name), (undefined(name='L') if l_0_L is missing else l_0_L), _loop_vars=_loop_vars)))
        yield '\n'
        if t_6(environment.getattr(l_1_r, 'overridden_by')):
            pass
            yield '  '
            yield str(t_4(environment.call(context, (undefined(name='t') if l_0_t is missing else l_0_t), 'overridden_by', file=environment.getattr(environment.getattr(l_1_r, 'overridden_by'), 'file'), replaced=environment.getattr(environment.getattr(l_1_r, 'overridden_by'), 'replaced'), _loop_vars=_loop_vars)))
            yield '\n'
        if t_6(environment.getattr(l_1_r, 'meaning_en')):
            pass
            yield '  '
            yield str(t_4(environment.call(context, (undefined(name='t') if l_0_t is missing else l_0_t), 'meaning', _loop_vars=_loop_vars)))
            yield ': '
            yield str(t_4(environment.call(context, (undefined(name='pick') if l_1_pick is missing else l_1_pick), {'en': environment.getattr(l_1_r, 'meaning_en'), 'zh': environment.getattr(l_1_r, 'meaning_zh')}, (undefined(name='L') if l_0_L is missing else l_0_L), _loop_vars=_loop_vars)))
            yield '\n'
        if (environment.getattr(l_1_r, 'kind') == 'quantity'):
            pass
            yield '  '
            yield str(t_4(environment.call(context, (undefined(name='t') if l_0_t is missing else l_0_t), 'unit', _loop_vars=_loop_vars)))
            yield ': '
            yield str(t_4(environment.getattr(l_1_r, 'unit')))
            if (environment.getattr(l_1_r, 'declared_unit') != environment.getattr(l_1_r, 'unit')):
                pass
                yield ' ('
                yield str(t_4(environment.getattr(l_1_r, 'declared_unit')))
                yield ')'
            yield ', '
            yield str(t_4(environment.call(context, (undefined(name='t') if l_0_t is missing else l_0_t), (environment.getattr(l_1_r, 'type') if (environment.getattr(l_1_r, 'type') == 'real') else 'integer'), _loop_vars=_loop_vars)))
            yield '\n  '
            yield str(t_4(environment.call(context, (undefined(name='t') if l_0_t is missing else l_0_t), 'symbol', _loop_vars=_loop_vars)))
            yield ': '
            yield str(t_4(environment.getattr(l_1_r, 'symbol')))
            yield '\n'
            if environment.getattr(l_1_r, 'aliases'):
                pass
                yield '  '
                yield str(t_4(environment.call(context, (undefined(name='t') if l_0_t is missing else l_0_t), 'aliases', _loop_vars=_loop_vars)))
                yield ': '
                yield str(t_4(t_2(t_5(context.eval_ctx, t_1(environment.getattr(l_1_r, 'aliases'), 'join'), ', '), 'join')))
                yield '\n'
            if t_6(environment.getattr(l_1_r, 'default')):
                pass
                yield '  '
                yield str(t_4(environment.call(context, (undefined(name='t') if l_0_t is missing else l_0_t), 'default_value', _loop_vars=_loop_vars)))
                yield ': '
                yield str(t_4(environment.getattr(l_1_r, 'default')))
                yield '\n'
            if environment.getattr(l_1_r, 'relations'):
                pass
                yield '  '
                yield str(t_4(environment.call(context, (undefined(name='t') if l_0_t is missing else l_0_t), 'relations_of', _loop_vars=_loop_vars)))
                yield ': '
                yield str(t_4(t_2(t_5(context.eval_ctx, t_1(environment.getattr(l_1_r, 'relations'), 'join'), ', '), 'join')))
                yield '\n'
            if environment.getattr(l_1_r, 'conditions'):
                pass
                yield '  '
                yield str(t_4(environment.call(context, (undefined(name='t') if l_0_t is missing else l_0_t), 'condition', _loop_vars=_loop_vars)))
                yield ': '
                yield str(t_4(t_2(t_5(context.eval_ctx, t_1(environment.getattr(l_1_r, 'conditions'), 'join'), ', '), 'join')))
                yield '\n'
            for (l_2_p, l_2_v) in t_3(environment.call(context, environment.getattr(environment.getattr(l_1_r, 'presets'), 'items'), _loop_vars=_loop_vars)):
                _loop_vars = {}
                pass
                yield '  '
                yield str(t_4(l_2_p))
                yield ': '
                yield str(t_4(environment.getattr(l_2_v, 'value')))
                if environment.getattr(l_2_v, 'note'):
                    pass
                    yield ' ('
                    yield str(t_4((environment.getattr(l_2_v, 'note_zh') if (((undefined(name='L') if l_0_L is missing else l_0_L) == 'zh') and environment.getattr(l_2_v, 'note_zh')) else environment.getattr(l_2_v, 'note'))))
                    yield ')'
                yield '\n'
            l_2_p = l_2_v = missing
        elif (environment.getattr(l_1_r, 'kind') == 'relation'):
            pass
            yield '  '
            yield str(t_4(environment.call(context, (undefined(name='t') if l_0_t is missing else l_0_t), 'equation', _loop_vars=_loop_vars)))
            yield ': '
            yield str(t_4(environment.getattr(l_1_r, 'equation')))
            yield '\n  '
            yield str(t_4(environment.call(context, (undefined(name='t') if l_0_t is missing else l_0_t), 'symbols', _loop_vars=_loop_vars)))
            yield ': '
            yield str(t_4(t_2(t_5(context.eval_ctx, t_1(environment.getattr(l_1_r, 'symbols'), 'join'), ', '), 'join')))
            yield '\n'
            if environment.getattr(l_1_r, 'regimes'):
                pass
                yield '  '
                yield str(t_4(environment.call(context, (undefined(name='t') if l_0_t is missing else l_0_t), 'regimes', _loop_vars=_loop_vars)))
                yield ': '
                yield str(t_4(t_2(t_5(context.eval_ctx, t_1(environment.getattr(l_1_r, 'regimes'), 'join'), ', '), 'join')))
                yield '\n'
            if environment.getattr(l_1_r, 'holds_when'):
                pass
                yield '  '
                yield str(t_4(environment.call(context, (undefined(name='t') if l_0_t is missing else l_0_t), 'holds_when', _loop_vars=_loop_vars)))
                yield ': '
                yield str(t_4(t_2(t_5(context.eval_ctx, t_1(environment.getattr(l_1_r, 'holds_when'), 'join'), ', '), 'join')))
                yield '\n'
        elif (environment.getattr(l_1_r, 'kind') == 'condition'):
            pass
            yield '  '
            yield str(t_4(environment.call(context, (undefined(name='t') if l_0_t is missing else l_0_t), 'condition', _loop_vars=_loop_vars)))
            yield ': '
            yield str(t_4(environment.getattr(l_1_r, 'require')))
            yield '\n'
        elif (environment.getattr(l_1_r, 'kind') in ('hw', 'model', 'setup')):
            pass
            if environment.getattr(l_1_r, 'extends'):
                pass
                yield '  '
                yield str(t_4(environment.call(context, (undefined(name='t') if l_0_t is missing else l_0_t), 'extends', _loop_vars=_loop_vars)))
                yield ': '
                yield str(t_4(environment.getattr(l_1_r, 'extends')))
                yield '\n'
            if environment.getattr(l_1_r, 'note'):
                pass
                yield '  '
                yield str(t_4(environment.getattr(l_1_r, 'note')))
                yield '\n'
            for (l_2_q, l_2_v) in t_3(environment.call(context, environment.getattr(environment.getitem(l_1_r, 'values'), 'items'), _loop_vars=_loop_vars)):
                _loop_vars = {}
                pass
                yield '  '
                yield str(t_4(l_2_q))
                yield ' '
                if (l_2_v[:2] != '= '):
                    pass
                    yield '= '
                yield str(t_4(l_2_v))
                if (l_2_q in environment.getattr(l_1_r, 'value_notes')):
                    pass
                    yield ' ('
                    yield str(t_4(environment.getitem(environment.getattr(l_1_r, 'value_notes'), l_2_q)))
                    yield ')'
                yield '\n'
            l_2_q = l_2_v = missing
        elif (environment.getattr(l_1_r, 'kind') == 'reference'):
            pass
            yield '  '
            yield str(t_4(environment.call(context, (undefined(name='t') if l_0_t is missing else l_0_t), 'kind', _loop_vars=_loop_vars)))
            yield ': '
            yield str(t_4(environment.getattr(l_1_r, 'reference_kind')))
            yield '\n'
            if environment.getattr(l_1_r, 'url'):
                pass
                yield '  '
                yield str(t_4(environment.call(context, (undefined(name='t') if l_0_t is missing else l_0_t), 'url', _loop_vars=_loop_vars)))
                yield ': '
                yield str(t_4(environment.getattr(l_1_r, 'url')))
                yield '\n'
            if environment.getattr(l_1_r, 'note'):
                pass
                yield '  '
                yield str(t_4(environment.getattr(l_1_r, 'note')))
                yield '\n'
        if (environment.getattr(l_1_r, 'kind') != 'reference'):
            pass
            yield '  '
            yield str(t_4(environment.call(context, (undefined(name='t') if l_0_t is missing else l_0_t), 'source', _loop_vars=_loop_vars)))
            yield ': '
            yield str(t_4(environment.getattr(l_1_r, 'source')))
            yield '\n'
    l_1_r = l_1_name = l_1_pick = missing

blocks = {}
debug_info = '2=50&3=53&4=65&5=70&6=72&7=78&8=81&10=83&11=86&13=90&14=93&15=104&16=108&17=111&19=115&20=118&22=122&23=125&25=129&26=132&28=136&29=140&32=150&33=153&34=157&35=161&36=164&38=168&39=171&41=175&42=178&43=182&44=184&45=187&47=191&48=194&50=196&51=200&54=213&55=216&56=220&57=223&59=227&60=230&63=232&64=235'
