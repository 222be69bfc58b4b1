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
        t_1 = environment.filters['_budget_iter']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named '_budget_iter' found.")
    try:
        t_2 = environment.filters['_budget_str']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named '_budget_str' found.")
    try:
        t_3 = environment.filters['format']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'format' found.")
    try:
        t_4 = environment.filters['join']
    except KeyError:
        @internalcode
        def t_4(*unused):
            raise TemplateRuntimeError("No filter named 'join' found.")
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
    for (l_1_name, l_1_size) in t_1(environment.call(context, environment.getattr(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'mesh'), 'items'))):
        l_1__ = missing
        _loop_vars = {}
        pass
        l_1__ = environment.call(context, environment.getattr((undefined(name='mesh') if l_0_mesh is missing else l_0_mesh), 'append'), t_2(str_join((l_1_name, '=', l_1_size, ))), _loop_vars=_loop_vars)
        _loop_vars['_'] = l_1__
    l_1_name = l_1_size = l_1__ = missing
    yield str(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'notation'))
    yield '\n  '
    yield str(environment.call(context, (undefined(name='msg') if l_0_msg is missing else l_0_msg), 'shard_mesh', (undefined(name='L') if l_0_L is missing else l_0_L)))
    yield str((undefined(name='colon') if l_0_colon is missing else l_0_colon))
    yield str(t_4(context.eval_ctx, (undefined(name='mesh') if l_0_mesh is missing else l_0_mesh), ', '))
    if environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'hw'):
        pass
        yield '    '
        yield str(environment.call(context, (undefined(name='msg') if l_0_msg is missing else l_0_msg), 'shard_hw', (undefined(name='L') if l_0_L is missing else l_0_L)))
        yield str((undefined(name='colon') if l_0_colon is missing else l_0_colon))
        yield str(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'hw'))
    yield '\n\n'
    for l_1_s in t_1(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'summary')):
        _loop_vars = {}
        pass
        yield str(l_1_s)
        yield '\n'
    l_1_s = missing
    yield '\n'
    yield str(environment.call(context, (undefined(name='msg') if l_0_msg is missing else l_0_msg), 'shard_local_matmul', (undefined(name='L') if l_0_L is missing else l_0_L)))
    yield '\n'
    for l_1_a in t_1([environment.getattr(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'local_matmul'), 'lhs'), environment.getattr(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'local_matmul'), 'rhs'), environment.getattr(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'local_matmul'), 'out')]):
        _loop_vars = {}
        pass
        yield '  '
        yield str(t_3('%-28s', environment.getattr(l_1_a, 'notation')))
        yield ' '
        yield str(environment.call(context, (undefined(name='msg') if l_0_msg is missing else l_0_msg), 'shard_local_shape', (undefined(name='L') if l_0_L is missing else l_0_L), _loop_vars=_loop_vars))
        yield ' ['
        yield str(t_4(context.eval_ctx, environment.getattr(l_1_a, 'local_shape'), ', '))
        yield ']\n'
    l_1_a = missing
    yield '  '
    yield str(environment.call(context, (undefined(name='msg') if l_0_msg is missing else l_0_msg), 'shard_flops', (undefined(name='L') if l_0_L is missing else l_0_L)))
    yield str((undefined(name='colon') if l_0_colon is missing else l_0_colon))
    yield str(environment.getattr(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'flops_per_chip'), 'display'))
    yield '    ('
    yield str(environment.getattr(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'flops_per_chip'), 'quantity'))
    yield ')\n  '
    yield str(environment.call(context, (undefined(name='msg') if l_0_msg is missing else l_0_msg), 'shard_compute', (undefined(name='L') if l_0_L is missing else l_0_L)))
    yield str((undefined(name='colon') if l_0_colon is missing else l_0_colon))
    yield str(environment.getattr(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'compute_time'), 'display'))
    yield '    ('
    yield str(environment.getattr(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'compute_time'), 'quantity'))
    yield ')\n\n'
    yield str(environment.call(context, (undefined(name='msg') if l_0_msg is missing else l_0_msg), 'shard_collectives', (undefined(name='L') if l_0_L is missing else l_0_L)))
    yield '\n'
    l_1_loop = missing
    t_5 = 1
    for l_1_c, l_1_loop in LoopContext(t_1(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'collectives')), undefined):
        _loop_vars = {}
        pass
        yield '  '
        yield str(environment.getattr(l_1_loop, 'index'))
        yield '. '
        yield str(environment.getattr(l_1_c, 'text'))
        yield '    ('
        yield str(environment.getattr(l_1_c, 'why'))
        yield ')\n     '
        yield str(environment.call(context, (undefined(name='msg') if l_0_msg is missing else l_0_msg), 'shard_bytes', (undefined(name='L') if l_0_L is missing else l_0_L), _loop_vars=_loop_vars))
        yield str((undefined(name='colon') if l_0_colon is missing else l_0_colon))
        yield str(environment.getattr(environment.getattr(l_1_c, 'bytes'), 'display'))
        yield '    '
        yield str(environment.call(context, (undefined(name='msg') if l_0_msg is missing else l_0_msg), 'shard_time', (undefined(name='L') if l_0_L is missing else l_0_L), _loop_vars=_loop_vars))
        yield str((undefined(name='colon') if l_0_colon is missing else l_0_colon))
        yield str(environment.getattr(environment.getattr(l_1_c, 'time'), 'display'))
        yield str((undefined(name='comma') if l_0_comma is missing else l_0_comma))
        yield str(environment.getattr(environment.getattr(l_1_c, 'time'), 'regime_name'))
        yield '    ('
        yield str(environment.getattr(environment.getattr(l_1_c, 'time'), 'quantity'))
        yield ')\n     '
        yield str(environment.getattr(l_1_c, 'topology'))
        yield '\n'
        t_5 = 0
    l_1_loop = l_1_c = missing
    if t_5:
        pass
        yield '  '
        yield str(environment.call(context, (undefined(name='msg') if l_0_msg is missing else l_0_msg), 'shard_no_collectives', (undefined(name='L') if l_0_L is missing else l_0_L)))
        yield '\n'
    yield '\n'
    yield str(environment.call(context, (undefined(name='msg') if l_0_msg is missing else l_0_msg), 'shard_output', (undefined(name='L') if l_0_L is missing else l_0_L)))
    yield str((undefined(name='colon') if l_0_colon is missing else l_0_colon))
    yield str(environment.getattr(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'output'), 'notation'))
    yield '    '
    yield str(environment.call(context, (undefined(name='msg') if l_0_msg is missing else l_0_msg), 'shard_local_shape', (undefined(name='L') if l_0_L is missing else l_0_L)))
    yield ' ['
    yield str(t_4(context.eval_ctx, environment.getattr(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'output'), 'local_shape'), ', '))
    yield ']\n'
    yield str(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'verdict'))
    yield '\n\n'
    yield str(environment.call(context, (undefined(name='msg') if l_0_msg is missing else l_0_msg), 'shard_assumed', (undefined(name='L') if l_0_L is missing else l_0_L)))
    yield str((undefined(name='colon') if l_0_colon is missing else l_0_colon))
    yield str(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'model'))
    yield '\n'
    if environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'hardware_note'):
        pass
        yield '  '
        yield str(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'hardware_note'))
        yield '\n'
    for l_1_a in t_1(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'assumed')):
        _loop_vars = {}
        pass
        yield '  '
        yield str(environment.call(context, (undefined(name='msg') if l_0_msg is missing else l_0_msg), 'shard_assumed_default', (undefined(name='L') if l_0_L is missing else l_0_L), name=environment.getattr(l_1_a, 'name'), value=environment.getattr(l_1_a, 'value'), _loop_vars=_loop_vars))
        if (environment.getattr(l_1_a, 'note_zh') and ((undefined(name='L') if l_0_L is missing else l_0_L) == 'zh')):
            pass
            yield str((undefined(name='colon') if l_0_colon is missing else l_0_colon))
            yield str(environment.getattr(l_1_a, 'note_zh'))
        elif (environment.getattr(l_1_a, 'note') and ((undefined(name='L') if l_0_L is missing else l_0_L) != 'zh')):
            pass
            yield str((undefined(name='colon') if l_0_colon is missing else l_0_colon))
            yield str(environment.getattr(l_1_a, 'note'))
        yield '\n'
    l_1_a = missing

blocks = {}
debug_info = '4=39&5=42&6=45&7=48&8=51&9=58&10=60&13=70&14=73&17=77&18=79&19=83&21=91&22=97&24=103&25=107&26=111&27=117&28=129&30=136&33=139&34=147&36=149&37=153&38=156&40=158&41=162'
