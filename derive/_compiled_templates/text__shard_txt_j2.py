"""shard.txt.j2 (text) compiled by Jinja 3.1.6; written by python -m derive._compiled_templates, do not edit."""
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'shard.txt.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_lang = resolve('lang')
    l_0_p = resolve('p')
    l_0_msg = resolve('msg')
    l_0_L = l_0_colon = l_0_comma = l_0_mesh = missing
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
    try:
        t_8 = environment.filters['prose']
    except KeyError:
        @internalcode
        def t_8(*unused):
            raise TemplateRuntimeError("No filter named 'prose' found.")
    pass
    l_0_L = (undefined(name='lang') if l_0_lang is missing else l_0_lang)
    context.vars['L'] = l_0_L
    context.exported_vars.add('L')
    l_0_colon = ('：' if ((undefined(name='L') if l_0_L is missing else l_0_L) == 'zh') else ': ')
    context.vars['colon'] = l_0_colon
    context.exported_vars.add('colon')
    l_0_comma = ('，' if ((undefined(name='L') if l_0_L is missing else l_0_L) == 'zh') else ', ')
    context.vars['comma'] = l_0_comma
    context.exported_vars.add('comma')
    l_0_mesh = []
    context.vars['mesh'] = l_0_mesh
    context.exported_vars.add('mesh')
    for (l_1_name, l_1_size) in t_3(environment.call(context, environment.getattr(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'mesh'), 'items'))):
        l_1__ = missing
        _loop_vars = {}
        pass
        l_1__ = environment.call(context, environment.getattr((undefined(name='mesh') if l_0_mesh is missing else l_0_mesh), 'append'), t_4(str_join((t_5(l_1_name), '=', t_5(l_1_size), ))), _loop_vars=_loop_vars)
        _loop_vars['_'] = l_1__
    l_1_name = l_1_size = l_1__ = missing
    yield str(t_5(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'notation')))
    yield '\n  '
    yield str(t_5(environment.call(context, (undefined(name='msg') if l_0_msg is missing else l_0_msg), 'shard_mesh', (undefined(name='L') if l_0_L is missing else l_0_L))))
    yield str(t_5((undefined(name='colon') if l_0_colon is missing else l_0_colon)))
    yield str(t_5(t_2(t_7(context.eval_ctx, t_1((undefined(name='mesh') if l_0_mesh is missing else l_0_mesh), 'join'), ', '), 'join')))
    if environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'hw'):
        pass
        yield '    '
        yield str(t_5(environment.call(context, (undefined(name='msg') if l_0_msg is missing else l_0_msg), 'shard_hw', (undefined(name='L') if l_0_L is missing else l_0_L))))
        yield str(t_5((undefined(name='colon') if l_0_colon is missing else l_0_colon)))
        yield str(t_5(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'hw')))
    yield '\n\n'
    for l_1_s in t_3(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'summary')):
        _loop_vars = {}
        pass
        yield str(t_5(l_1_s))
        yield '\n'
    l_1_s = missing
    yield '\n'
    yield str(t_5(environment.call(context, (undefined(name='msg') if l_0_msg is missing else l_0_msg), 'shard_local_matmul', (undefined(name='L') if l_0_L is missing else l_0_L))))
    yield '\n'
    for l_1_a in t_3([environment.getattr(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'local_matmul'), 'lhs'), environment.getattr(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'local_matmul'), 'rhs'), environment.getattr(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'local_matmul'), 'out')]):
        _loop_vars = {}
        pass
        yield '  '
        yield str(t_5(t_2(t_6('%-28s', environment.getattr(l_1_a, 'notation')), 'format')))
        yield ' '
        yield str(t_5(environment.call(context, (undefined(name='msg') if l_0_msg is missing else l_0_msg), 'shard_local_shape', (undefined(name='L') if l_0_L is missing else l_0_L), _loop_vars=_loop_vars)))
        yield ' ['
        yield str(t_5(t_2(t_7(context.eval_ctx, t_1(environment.getattr(l_1_a, 'local_shape'), 'join'), ', '), 'join')))
        yield ']\n'
    l_1_a = missing
    yield '  '
    yield str(t_5(environment.call(context, (undefined(name='msg') if l_0_msg is missing else l_0_msg), 'shard_flops', (undefined(name='L') if l_0_L is missing else l_0_L))))
    yield str(t_5((undefined(name='colon') if l_0_colon is missing else l_0_colon)))
    yield str(t_5(environment.getattr(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'flops_per_chip'), 'display')))
    yield '    ('
    yield str(t_5(environment.getattr(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'flops_per_chip'), 'quantity')))
    yield ')\n  '
    yield str(t_5(environment.call(context, (undefined(name='msg') if l_0_msg is missing else l_0_msg), 'shard_compute', (undefined(name='L') if l_0_L is missing else l_0_L))))
    yield str(t_5((undefined(name='colon') if l_0_colon is missing else l_0_colon)))
    yield str(t_5(environment.getattr(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'compute_time'), 'display')))
    yield '    ('
    yield str(t_5(environment.getattr(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'compute_time'), 'quantity')))
    yield ')\n\n'
    yield str(t_5(environment.call(context, (undefined(name='msg') if l_0_msg is missing else l_0_msg), 'shard_collectives', (undefined(name='L') if l_0_L is missing else l_0_L))))
    yield '\n'
    l_1_loop = missing
    t_9 = 1
    for l_1_c, l_1_loop in LoopContext(t_3(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'collectives')), undefined):
        _loop_vars = {}
        pass
        yield '  '
        yield str(t_5(environment.getattr(l_1_loop, 'index')))
        yield '. '
        yield str(t_5(environment.getattr(l_1_c, 'text')))
        yield '    ('
        yield str(t_5(environment.getattr(l_1_c, 'why')))
        yield ')\n     '
        yield str(t_5(environment.call(context, (undefined(name='msg') if l_0_msg is missing else l_0_msg), 'shard_bytes', (undefined(name='L') if l_0_L is missing else l_0_L), _loop_vars=_loop_vars)))
        yield str(t_5((undefined(name='colon') if l_0_colon is missing else l_0_colon)))
        yield str(t_5(environment.getattr(environment.getattr(l_1_c, 'bytes'), 'display')))
        yield '    '
        yield str(t_5(environment.call(context, (undefined(name='msg') if l_0_msg is missing else l_0_msg), 'shard_time', (undefined(name='L') if l_0_L is missing else l_0_L), _loop_vars=_loop_vars)))
        yield str(t_5((undefined(name='colon') if l_0_colon is missing else l_0_colon)))
        yield str(t_5(environment.getattr(environment.getattr(l_1_c, 'time'), 'display')))
        yield str(t_5((undefined(name='comma') if l_0_comma is missing else l_0_comma)))
        yield str(t_5(environment.getattr(environment.getattr(l_1_c, 'time'), 'regime_name')))
        yield '    ('
        yield str(t_5(environment.getattr(environment.getattr(l_1_c, 'time'), 'quantity')))
        yield ')\n     '
        yield str(t_5(environment.getattr(l_1_c, 'topology')))
        yield '\n'
        t_9 = 0
    l_1_loop = l_1_c = missing
    if t_9:
        pass
        yield '  '
        yield str(t_5(environment.call(context, (undefined(name='msg') if l_0_msg is missing else l_0_msg), 'shard_no_collectives', (undefined(name='L') if l_0_L is missing else l_0_L))))
        yield '\n'
    yield '\n'
    yield str(t_5(environment.call(context, (undefined(name='msg') if l_0_msg is missing else l_0_msg), 'shard_output', (undefined(name='L') if l_0_L is missing else l_0_L))))
    yield str(t_5((undefined(name='colon') if l_0_colon is missing else l_0_colon)))
    yield str(t_5(environment.getattr(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'output'), 'notation')))
    yield '    '
    yield str(t_5(environment.call(context, (undefined(name='msg') if l_0_msg is missing else l_0_msg), 'shard_local_shape', (undefined(name='L') if l_0_L is missing else l_0_L))))
    yield ' ['
    yield str(t_5(t_2(t_7(context.eval_ctx, t_1(environment.getattr(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'output'), 'local_shape'), 'join'), ', '), 'join')))
    yield ']\n'
    yield str(t_5(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'verdict')))
    yield '\n\n'
    yield str(t_5(environment.call(context, (undefined(name='msg') if l_0_msg is missing else l_0_msg), 'shard_assumed', (undefined(name='L') if l_0_L is missing else l_0_L))))
    yield str(t_5((undefined(name='colon') if l_0_colon is missing else l_0_colon)))
    yield str(t_5(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'model')))
    yield '\n'
    if environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'hardware_note'):
        pass
        yield '  '
        yield str(t_5(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'hardware_note')))
        yield '\n'
    for l_1_a in t_3(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'assumed')):
        _loop_vars = {}
        pass
        yield '  '
        yield str(t_5(environment.call(context, (undefined(name='msg') if l_0_msg is missing else l_0_msg), 'shard_assumed_default', (undefined(name='L') if l_0_L is missing else l_0_L), name=environment.getattr(l_1_a, 'name'), value=environment.getattr(l_1_a, 'value'), _loop_vars=_loop_vars)))
        if (environment.getattr(l_1_a, 'note_zh') and ((undefined(name='L') if l_0_L is missing else l_0_L) == 'zh')):
            pass
            yield str(t_5((undefined(name='colon') if l_0_colon is missing else l_0_colon)))
            yield str(t_5(t_2(t_8(t_1(environment.getattr(l_1_a, 'note_zh'), 'prose')), 'prose')))
        elif (environment.getattr(l_1_a, 'note') and ((undefined(name='L') if l_0_L is missing else l_0_L) != 'zh')):
            pass
            yield str(t_5((undefined(name='colon') if l_0_colon is missing else l_0_colon)))
            yield str(t_5(t_2(t_8(t_1(environment.getattr(l_1_a, 'note'), 'prose')), 'prose')))
        yield '\n'
    l_1_a = missing

blocks = {}
debug_info = '4=63&5=66&6=69&7=72&8=75&9=82&10=84&13=94&14=97&17=101&18=103&19=107&21=115&22=121&24=127&25=131&26=135&27=141&28=153&30=160&33=163&34=171&36=173&37=177&38=180&40=182&41=186'
