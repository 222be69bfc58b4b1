"""_solution.j2 (html) compiled by Jinja 3.1.6; written by python -m derive._compiled_templates, do not edit."""
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '_solution.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_output = resolve('output')
    l_0_f = l_0_langs = l_0_para = l_0_say = l_0_label = l_0_two = l_0_word = l_0_name = l_0_cite = l_0_esc = l_0_question = l_0_origin = l_0_given = l_0_ref_title = l_0_note_text = l_0_step_title = l_0_step_body = l_0_answer_line = l_0_regime_sentence = l_0_answer = l_0_assumption_items = l_0_check_items = l_0_note_items = l_0_source_items = l_0_step_name = l_0_plan_line = l_0_plan = l_0_step_head = l_0_step_block = l_0_branch_sentence = l_0_answer_box = l_0_notes_list = l_0_has_notes = l_0_checks_short = l_0_solution = missing
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
        t_8 = environment.filters['list']
    except KeyError:
        @internalcode
        def t_8(*unused):
            raise TemplateRuntimeError("No filter named 'list' found.")
    try:
        t_9 = environment.filters['localize']
    except KeyError:
        @internalcode
        def t_9(*unused):
            raise TemplateRuntimeError("No filter named 'localize' found.")
    try:
        t_10 = environment.filters['map']
    except KeyError:
        @internalcode
        def t_10(*unused):
            raise TemplateRuntimeError("No filter named 'map' found.")
    try:
        t_11 = environment.filters['math']
    except KeyError:
        @internalcode
        def t_11(*unused):
            raise TemplateRuntimeError("No filter named 'math' found.")
    try:
        t_12 = environment.filters['md']
    except KeyError:
        @internalcode
        def t_12(*unused):
            raise TemplateRuntimeError("No filter named 'md' found.")
    try:
        t_13 = environment.filters['mostly_latin']
    except KeyError:
        @internalcode
        def t_13(*unused):
            raise TemplateRuntimeError("No filter named 'mostly_latin' found.")
    try:
        t_14 = environment.filters['prose']
    except KeyError:
        @internalcode
        def t_14(*unused):
            raise TemplateRuntimeError("No filter named 'prose' found.")
    try:
        t_15 = environment.filters['replace']
    except KeyError:
        @internalcode
        def t_15(*unused):
            raise TemplateRuntimeError("No filter named 'replace' found.")
    try:
        t_16 = environment.filters['safe']
    except KeyError:
        @internalcode
        def t_16(*unused):
            raise TemplateRuntimeError("No filter named 'safe' found.")
    try:
        t_17 = environment.filters['select']
    except KeyError:
        @internalcode
        def t_17(*unused):
            raise TemplateRuntimeError("No filter named 'select' found.")
    try:
        t_18 = environment.filters['selectattr']
    except KeyError:
        @internalcode
        def t_18(*unused):
            raise TemplateRuntimeError("No filter named 'selectattr' found.")
    try:
        t_19 = environment.filters['sentence_start']
    except KeyError:
        @internalcode
        def t_19(*unused):
            raise TemplateRuntimeError("No filter named 'sentence_start' found.")
    try:
        t_20 = environment.filters['tex']
    except KeyError:
        @internalcode
        def t_20(*unused):
            raise TemplateRuntimeError("No filter named 'tex' found.")
    pass
    l_0_f = context.vars['f'] = environment.get_template(t_4(markup_join(('_', t_5((undefined(name='output') if l_0_output is missing else l_0_output)), '.j2', ))), '_solution.j2')._get_default_module(context)
    context.exported_vars.discard('f')
    def macro():
        t_21 = []
        l_1_lang = resolve('lang')
        pass
        t_21.append(
            escape(t_5(('zh en' if ((undefined(name='lang') if l_1_lang is missing else l_1_lang) == 'both') else (undefined(name='lang') if l_1_lang is missing else l_1_lang)))),
        )
        return concat(t_21)
    context.exported_vars.add('langs')
    context.vars['langs'] = l_0_langs = Macro(environment, macro, 'langs', (), False, False, False, context.eval_ctx.autoescape)
    yield '\n'
    def macro(l_1_texts):
        t_22 = []
        l_1_lang = resolve('lang')
        l_1_pick = resolve('pick')
        if l_1_texts is missing:
            l_1_texts = undefined("parameter 'texts' was not provided", name='texts')
        pass
        if ((undefined(name='lang') if l_1_lang is missing else l_1_lang) == 'both'):
            pass
            t_22.extend((
                escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'p'), environment.call(context, (undefined(name='pick') if l_1_pick is missing else l_1_pick), l_1_texts, 'zh')))),
                escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'p'), environment.call(context, (undefined(name='pick') if l_1_pick is missing else l_1_pick), l_1_texts, 'en'), True))),
                '\n',
            ))
        else:
            pass
            t_22.extend((
                escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'p'), environment.call(context, (undefined(name='pick') if l_1_pick is missing else l_1_pick), l_1_texts, (undefined(name='lang') if l_1_lang is missing else l_1_lang))))),
                '\n',
            ))
        return concat(t_22)
    context.exported_vars.add('para')
    context.vars['para'] = l_0_para = Macro(environment, macro, 'para', ('texts',), False, False, False, context.eval_ctx.autoescape)
    yield '\n'
    def macro(l_1_key, l_1_kwargs):
        t_23 = []
        l_1_lang = resolve('lang')
        l_1_msg = resolve('msg')
        if l_1_key is missing:
            l_1_key = undefined("parameter 'key' was not provided", name='key')
        pass
        if ((undefined(name='lang') if l_1_lang is missing else l_1_lang) == 'both'):
            pass
            t_23.extend((
                escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'p'), environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), l_1_key, 'zh', **l_1_kwargs)))),
                escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'p'), environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), l_1_key, 'en', **l_1_kwargs), True))),
                '\n',
            ))
        else:
            pass
            t_23.extend((
                escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'p'), environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), l_1_key, (undefined(name='lang') if l_1_lang is missing else l_1_lang), **l_1_kwargs)))),
                '\n',
            ))
        return concat(t_23)
    context.exported_vars.add('say')
    context.vars['say'] = l_0_say = Macro(environment, macro, 'say', ('key',), True, False, False, context.eval_ctx.autoescape)
    yield '\n'
    def macro(l_1_key, l_1_kwargs):
        t_24 = []
        l_1_msg = resolve('msg')
        l_1_lang = resolve('lang')
        if l_1_key is missing:
            l_1_key = undefined("parameter 'key' was not provided", name='key')
        pass
        t_24.append(
            escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'p'), environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), l_1_key, (undefined(name='lang') if l_1_lang is missing else l_1_lang), **l_1_kwargs)))),
        )
        return concat(t_24)
    context.exported_vars.add('label')
    context.vars['label'] = l_0_label = Macro(environment, macro, 'label', ('key',), True, False, False, context.eval_ctx.autoescape)
    def macro(l_1_zh, l_1_en):
        t_25 = []
        if l_1_zh is missing:
            l_1_zh = undefined("parameter 'zh' was not provided", name='zh')
        if l_1_en is missing:
            l_1_en = undefined("parameter 'en' was not provided", name='en')
        pass
        if (l_1_zh == l_1_en):
            pass
            t_25.append(
                escape(t_5(l_1_zh)),
            )
        else:
            pass
            t_25.append(
                escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'both'), l_1_zh, l_1_en))),
            )
        return concat(t_25)
    context.exported_vars.add('two')
    context.vars['two'] = l_0_two = Macro(environment, macro, 'two', ('zh', 'en'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_key, l_1_kwargs):
        t_26 = []
        l_1_lang = resolve('lang')
        l_1_msg = resolve('msg')
        if l_1_key is missing:
            l_1_key = undefined("parameter 'key' was not provided", name='key')
        pass
        if ((undefined(name='lang') if l_1_lang is missing else l_1_lang) == 'both'):
            pass
            t_26.append(
                escape(t_5(environment.call(context, (undefined(name='two') if l_0_two is missing else l_0_two), environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), l_1_key, 'zh', **l_1_kwargs), environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), l_1_key, 'en', **l_1_kwargs)))),
            )
        else:
            pass
            t_26.append(
                escape(t_5(environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), l_1_key, (undefined(name='lang') if l_1_lang is missing else l_1_lang), **l_1_kwargs))),
            )
        return concat(t_26)
    context.exported_vars.add('word')
    context.vars['word'] = l_0_word = Macro(environment, macro, 'word', ('key',), True, False, False, context.eval_ctx.autoescape)
    def macro(l_1_texts):
        t_27 = []
        l_1_lang = resolve('lang')
        l_1_pick = resolve('pick')
        if l_1_texts is missing:
            l_1_texts = undefined("parameter 'texts' was not provided", name='texts')
        pass
        if ((undefined(name='lang') if l_1_lang is missing else l_1_lang) == 'both'):
            pass
            t_27.append(
                escape(t_5(environment.call(context, (undefined(name='two') if l_0_two is missing else l_0_two), environment.call(context, (undefined(name='pick') if l_1_pick is missing else l_1_pick), l_1_texts, 'zh'), environment.call(context, (undefined(name='pick') if l_1_pick is missing else l_1_pick), l_1_texts, 'en')))),
            )
        else:
            pass
            t_27.append(
                escape(t_5(environment.call(context, (undefined(name='pick') if l_1_pick is missing else l_1_pick), l_1_texts, (undefined(name='lang') if l_1_lang is missing else l_1_lang)))),
            )
        return concat(t_27)
    context.exported_vars.add('name')
    context.vars['name'] = l_0_name = Macro(environment, macro, 'name', ('texts',), False, False, False, context.eval_ctx.autoescape)
    yield '\n'
    def macro(l_1_s, l_1_source):
        t_28 = []
        l_1_lang = resolve('lang')
        if l_1_s is missing:
            l_1_s = undefined("parameter 's' was not provided", name='s')
        if l_1_source is missing:
            l_1_source = undefined("parameter 'source' was not provided", name='source')
        pass
        if (l_1_source and (environment.getattr(l_1_source, 'ref') in environment.getattr(l_1_s, 'cite_index'))):
            pass
            t_28.extend((
                '[',
                escape(t_5(environment.getitem(environment.getattr(l_1_s, 'cite_index'), environment.getattr(l_1_source, 'ref')))),
                ']',
            ))
            if environment.getattr(l_1_source, 'locator'):
                pass
                t_28.extend((
                    ' ',
                    escape(t_5(environment.call(context, (undefined(name='esc') if l_0_esc is missing else l_0_esc), t_2(t_9(t_1(environment.getattr(l_1_source, 'locator'), 'localize'), (undefined(name='lang') if l_1_lang is missing else l_1_lang)), 'localize')))),
                ))
        return concat(t_28)
    context.exported_vars.add('cite')
    context.vars['cite'] = l_0_cite = Macro(environment, macro, 'cite', ('s', 'source'), False, False, False, context.eval_ctx.autoescape)
    yield '\n'
    def macro(l_1_text):
        t_29 = []
        if l_1_text is missing:
            l_1_text = undefined("parameter 'text' was not provided", name='text')
        pass
        t_29.append(
            escape(t_5((t_2(t_20(t_1(l_1_text, 'tex')), 'tex') if ((undefined(name='output') if l_0_output is missing else l_0_output) == 'tex') else (t_2(t_12(t_1(l_1_text, 'md')), 'md') if ((undefined(name='output') if l_0_output is missing else l_0_output) == 'md') else l_1_text)))),
        )
        return concat(t_29)
    context.exported_vars.add('esc')
    context.vars['esc'] = l_0_esc = Macro(environment, macro, 'esc', ('text',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_s, l_1_ask):
        t_30 = []
        l_1_msg = resolve('msg')
        l_1_conds = resolve('conds')
        if l_1_s is missing:
            l_1_s = undefined("parameter 's' was not provided", name='s')
        if l_1_ask is missing:
            l_1_ask = None
        pass
        if l_1_ask:
            pass
            t_30.extend((
                escape(t_5(environment.call(context, (undefined(name='para') if l_0_para is missing else l_0_para), l_1_ask))),
                '\n',
            ))
        elif environment.getattr(l_1_s, 'bound'):
            pass
            l_1_conds = {'en': t_2(t_6(context.eval_ctx, t_1(t_2(t_10(context, t_1(environment.getattr(l_1_s, 'conditions'), 'map'), attribute='name.en'), 'map'), 'join'), environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), 'w_and', 'en')), 'join'), 'zh': t_2(t_6(context.eval_ctx, t_1(t_2(t_10(context, t_1(environment.getattr(l_1_s, 'conditions'), 'map'), attribute='name.zh'), 'map'), 'join'), environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), 'w_and', 'zh')), 'join')}
            t_30.extend((
                escape(t_5(environment.call(context, (undefined(name='say') if l_0_say is missing else l_0_say), t_4(markup_join(('w_ask_', t_5(environment.getattr(l_1_s, 'bound')), ))), name=environment.getattr(environment.getattr(l_1_s, 'target'), 'name'), conditions=(undefined(name='conds') if l_1_conds is missing else l_1_conds)))),
                '\n',
            ))
        else:
            pass
            t_30.extend((
                escape(t_5(environment.call(context, (undefined(name='say') if l_0_say is missing else l_0_say), 'w_ask_solve', name=environment.getattr(environment.getattr(l_1_s, 'target'), 'name')))),
                '\n',
            ))
        return concat(t_30)
    context.exported_vars.add('question')
    context.vars['question'] = l_0_question = Macro(environment, macro, 'question', ('s', 'ask'), False, False, False, context.eval_ctx.autoescape)
    yield '\n'
    def macro(l_1_g, l_1_L):
        t_31 = []
        l_1_aside = resolve('aside')
        l_1_msg = resolve('msg')
        l_1_pick = resolve('pick')
        if l_1_g is missing:
            l_1_g = undefined("parameter 'g' was not provided", name='g')
        if l_1_L is missing:
            l_1_L = undefined("parameter 'L' was not provided", name='L')
        pass
        if (environment.getattr(l_1_g, 'origin') in ('hw', 'model', 'setup')):
            pass
            if (environment.getattr(l_1_g, 'preset_name') and (environment.getattr(l_1_g, 'origin') != 'setup')):
                pass
                t_31.append(
                    escape(t_5(environment.call(context, (undefined(name='aside') if l_1_aside is missing else l_1_aside), environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), t_4(markup_join(('w_origin_', t_5(environment.getattr(l_1_g, 'origin')), ))), l_1_L, preset=environment.getattr(l_1_g, 'preset')), t_2(t_16(t_1(environment.call(context, (undefined(name='pick') if l_1_pick is missing else l_1_pick), environment.getattr(l_1_g, 'preset_name'), l_1_L), 'safe')), 'safe'), l_1_L))),
                )
            else:
                pass
                t_31.append(
                    escape(t_5(environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), t_4(markup_join(('w_origin_', t_5(environment.getattr(l_1_g, 'origin')), ))), l_1_L, preset=environment.getattr(l_1_g, 'preset')))),
                )
        elif (environment.getattr(l_1_g, 'origin') == 'default'):
            pass
            t_31.append(
                escape(t_5(environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), 'w_origin_default', l_1_L))),
            )
        else:
            pass
            t_31.append(
                escape(t_5(environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), 'w_origin_given', l_1_L))),
            )
        return concat(t_31)
    context.exported_vars.add('origin')
    context.vars['origin'] = l_0_origin = Macro(environment, macro, 'origin', ('g', 'L'), False, False, False, context.eval_ctx.autoescape)
    yield '\n'
    def macro(l_1_s, l_1_compact):
        t_32 = []
        l_1_marked = resolve('marked')
        l_1_head = l_1_rows = l_1_notes = missing
        if l_1_s is missing:
            l_1_s = undefined("parameter 's' was not provided", name='s')
        if l_1_compact is missing:
            l_1_compact = False
        pass
        l_1_head = [environment.call(context, (undefined(name='word') if l_0_word is missing else l_0_word), 'w_col_quantity'), environment.call(context, (undefined(name='word') if l_0_word is missing else l_0_word), 'w_col_symbol'), environment.call(context, (undefined(name='word') if l_0_word is missing else l_0_word), 'w_col_value'), environment.call(context, (undefined(name='word') if l_0_word is missing else l_0_word), 'w_col_origin'), environment.call(context, (undefined(name='word') if l_0_word is missing else l_0_word), 'w_col_source')]
        l_1_rows = []
        l_1_notes = []
        for l_2_g in t_3(environment.getattr(l_1_s, 'given')):
            l_2_msg = resolve('msg')
            l_2_lang = resolve('lang')
            l_2_mark = l_2_from = missing
            _loop_vars = {}
            pass
            l_2_mark = ''
            _loop_vars['mark'] = l_2_mark
            if (environment.getattr(l_2_g, 'note') and (not l_1_compact)):
                pass
                t_32.extend((
                    escape(t_5(('' if environment.call(context, environment.getattr((undefined(name='notes') if l_1_notes is missing else l_1_notes), 'append'), environment.call(context, (undefined(name='note_text') if l_0_note_text is missing else l_0_note_text), environment.getattr(l_2_g, 'note'), environment.getattr(l_2_g, 'note_zh'), _loop_vars=_loop_vars), _loop_vars=_loop_vars) else ''))),
                    '\n',
                ))
                l_2_mark = t_4(markup_join((' ', t_5(environment.call(context, (undefined(name='msg') if l_2_msg is missing else l_2_msg), 'w_note_mark', 'en', n=t_2(t_7(t_1((undefined(name='notes') if l_1_notes is missing else l_1_notes), 'length')), 'length'), _loop_vars=_loop_vars)), )))
                _loop_vars['mark'] = l_2_mark
            l_2_from = (environment.call(context, (undefined(name='two') if l_0_two is missing else l_0_two), environment.call(context, (undefined(name='origin') if l_0_origin is missing else l_0_origin), l_2_g, 'zh', _loop_vars=_loop_vars), environment.call(context, (undefined(name='origin') if l_0_origin is missing else l_0_origin), l_2_g, 'en', _loop_vars=_loop_vars), _loop_vars=_loop_vars) if ((undefined(name='lang') if l_2_lang is missing else l_2_lang) == 'both') else environment.call(context, (undefined(name='origin') if l_0_origin is missing else l_0_origin), l_2_g, (undefined(name='lang') if l_2_lang is missing else l_2_lang), _loop_vars=_loop_vars))
            _loop_vars['from'] = l_2_from
            t_32.extend((
                escape(t_5(('' if environment.call(context, environment.getattr((undefined(name='rows') if l_1_rows is missing else l_1_rows), 'append'), [environment.call(context, (undefined(name='name') if l_0_name is missing else l_0_name), environment.getattr(l_2_g, 'name'), _loop_vars=_loop_vars), t_2(t_11(t_1(environment.getattr(l_2_g, 'symbol'), 'math')), 'math'), t_2(t_11(t_1(environment.getattr(l_2_g, 'value_latex'), 'math')), 'math'), (undefined(name='from') if l_2_from is missing else l_2_from), t_4(markup_join((t_5(environment.call(context, (undefined(name='cite') if l_0_cite is missing else l_0_cite), l_1_s, environment.getattr(l_2_g, 'source'), _loop_vars=_loop_vars)), t_5((undefined(name='mark') if l_2_mark is missing else l_2_mark)), )))], _loop_vars=_loop_vars) else ''))),
                '\n',
            ))
        l_2_g = l_2_mark = l_2_msg = l_2_lang = l_2_from = missing
        if t_2(t_8(context.eval_ctx, t_1(t_2(t_17(context, t_1(t_2(t_10(context, t_1(t_2(t_10(context, t_1((undefined(name='rows') if l_1_rows is missing else l_1_rows), 'map'), 'last'), 'map'), 'map'), 'trim'), 'map'), 'select')), 'select'), 'list')), 'list'):
            pass
            t_32.extend((
                escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'table'), (undefined(name='head') if l_1_head is missing else l_1_head), (undefined(name='rows') if l_1_rows is missing else l_1_rows)))),
                '\n',
            ))
        else:
            pass
            t_32.extend((
                escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'table'), (undefined(name='head') if l_1_head is missing else l_1_head)[:4], t_2(t_8(context.eval_ctx, t_1(t_2(t_10(context, t_1(t_2(t_10(context, t_1((undefined(name='rows') if l_1_rows is missing else l_1_rows), 'map'), 'batch', 4), 'map'), 'map'), 'first'), 'map'), 'list')), 'list')))),
                '\n',
            ))
        if (undefined(name='notes') if l_1_notes is missing else l_1_notes):
            pass
            l_1_marked = []
            l_2_loop = missing
            for l_2_n, l_2_loop in LoopContext(t_3((undefined(name='notes') if l_1_notes is missing else l_1_notes)), undefined):
                l_2_msg = resolve('msg')
                _loop_vars = {}
                pass
                t_32.append(
                    escape(t_5(('' if environment.call(context, environment.getattr((undefined(name='marked') if l_1_marked is missing else l_1_marked), 'append'), t_4(markup_join((t_5(environment.call(context, (undefined(name='msg') if l_2_msg is missing else l_2_msg), 'w_note_mark', 'en', n=environment.getattr(l_2_loop, 'index'), _loop_vars=_loop_vars)), ' ', t_5(l_2_n), ))), _loop_vars=_loop_vars) else ''))),
                )
            l_2_loop = l_2_n = l_2_msg = missing
            t_32.extend((
                escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'small'), t_2(t_6(context.eval_ctx, t_1((undefined(name='marked') if l_1_marked is missing else l_1_marked), 'join'), ' '), 'join')))),
                '\n\n',
            ))
        return concat(t_32)
    context.exported_vars.add('given')
    context.vars['given'] = l_0_given = Macro(environment, macro, 'given', ('s', 'compact'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_c):
        t_33 = []
        l_1_lang = resolve('lang')
        if l_1_c is missing:
            l_1_c = undefined("parameter 'c' was not provided", name='c')
        pass
        if (environment.getattr(l_1_c, 'title_zh') and ((undefined(name='lang') if l_1_lang is missing else l_1_lang) == 'zh')):
            pass
            t_33.append(
                escape(t_5(environment.getattr(l_1_c, 'title_zh'))),
            )
        elif (environment.getattr(l_1_c, 'title_zh') and ((undefined(name='lang') if l_1_lang is missing else l_1_lang) == 'both')):
            pass
            t_33.extend((
                escape(t_5(environment.getattr(l_1_c, 'title_zh'))),
                ' / ',
                escape(t_5(environment.getattr(l_1_c, 'title'))),
            ))
        else:
            pass
            t_33.append(
                escape(t_5(environment.getattr(l_1_c, 'title'))),
            )
        return concat(t_33)
    context.exported_vars.add('ref_title')
    context.vars['ref_title'] = l_0_ref_title = Macro(environment, macro, 'ref_title', ('c',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_text, l_1_zh):
        t_34 = []
        l_1_lang = resolve('lang')
        l_1_msg = resolve('msg')
        if l_1_text is missing:
            l_1_text = undefined("parameter 'text' was not provided", name='text')
        if l_1_zh is missing:
            l_1_zh = ''
        pass
        if (l_1_zh and ((undefined(name='lang') if l_1_lang is missing else l_1_lang) == 'zh')):
            pass
            t_34.append(
                escape(t_5(t_2(t_14(t_1(l_1_zh, 'prose')), 'prose'))),
            )
        elif (l_1_zh and ((undefined(name='lang') if l_1_lang is missing else l_1_lang) == 'both')):
            pass
            t_34.extend((
                escape(t_5(t_2(t_14(t_1(l_1_zh, 'prose')), 'prose'))),
                ' / ',
                escape(t_5(t_2(t_14(t_1(l_1_text, 'prose')), 'prose'))),
            ))
        elif (((undefined(name='lang') if l_1_lang is missing else l_1_lang) == 'zh') and t_2(t_13(t_1(l_1_text, 'mostly_latin')), 'mostly_latin')):
            pass
            t_34.append(
                escape(t_5(environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), 'w_quoted_note', 'zh', note=t_2(t_14(t_1(l_1_text, 'prose')), 'prose')))),
            )
        else:
            pass
            t_34.append(
                escape(t_5(t_2(t_14(t_1(l_1_text, 'prose')), 'prose'))),
            )
        return concat(t_34)
    context.exported_vars.add('note_text')
    context.vars['note_text'] = l_0_note_text = Macro(environment, macro, 'note_text', ('text', 'zh'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_s, l_1_st, l_1_L):
        t_35 = []
        l_1_unknown = resolve('unknown')
        l_1_msg = resolve('msg')
        l_1_pick = resolve('pick')
        if l_1_s is missing:
            l_1_s = undefined("parameter 's' was not provided", name='s')
        if l_1_st is missing:
            l_1_st = undefined("parameter 'st' was not provided", name='st')
        if l_1_L is missing:
            l_1_L = undefined("parameter 'L' was not provided", name='L')
        pass
        if (l_1_L == 'both'):
            pass
            t_35.extend((
                escape(t_5(environment.call(context, (undefined(name='step_title') if l_0_step_title is missing else l_0_step_title), l_1_s, l_1_st, 'zh'))),
                ' / ',
                escape(t_5(environment.call(context, (undefined(name='step_title') if l_0_step_title is missing else l_0_step_title), l_1_s, l_1_st, 'en'))),
            ))
        else:
            pass
            l_1_unknown = environment.getitem(environment.getattr(l_1_st, 'solved_for'), 0)
            t_35.extend((
                escape(t_5(environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), 'w_step_n', l_1_L, n=environment.getattr(l_1_st, 'index')))),
                ' · ',
            ))
            if (environment.getattr(l_1_st, 'kind') == 'approximate'):
                pass
                t_35.append(
                    escape(t_5(environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), 'step_approximate', l_1_L, assumption=environment.getattr(l_1_st, 'assumption')))),
                )
            elif (environment.getattr(l_1_st, 'kind') == 'interval'):
                pass
                t_35.append(
                    escape(t_5(environment.call(context, (undefined(name='pick') if l_1_pick is missing else l_1_pick), environment.getattr(environment.getitem(environment.getattr(l_1_st, 'relations'), 0), 'name'), l_1_L))),
                )
            elif (environment.getattr(l_1_st, 'kind') == 'optimum'):
                pass
                t_35.append(
                    escape(t_5(environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), t_4(markup_join(('step_optimum_', t_5(environment.getattr(l_1_st, 'direction')), ))), l_1_L, name=environment.call(context, (undefined(name='pick') if l_1_pick is missing else l_1_pick), environment.getattr(environment.getattr(l_1_st, 'objective'), 'name'), l_1_L)))),
                )
            elif (environment.getattr(l_1_st, 'kind') in ('relation', 'bound')):
                pass
                t_35.append(
                    escape(t_5(environment.call(context, (undefined(name='pick') if l_1_pick is missing else l_1_pick), environment.getattr(environment.getitem(environment.getattr(l_1_st, 'relations'), 0), 'name'), l_1_L))),
                )
            elif (environment.getattr(l_1_st, 'kind') == 'system'):
                pass
                l_2_loop = missing
                for l_2_r, l_2_loop in LoopContext(t_3(environment.getattr(l_1_st, 'relations')), undefined):
                    _loop_vars = {}
                    pass
                    t_35.append(
                        escape(t_5(environment.call(context, (undefined(name='pick') if l_1_pick is missing else l_1_pick), environment.getattr(l_2_r, 'name'), l_1_L, _loop_vars=_loop_vars))),
                    )
                    if (not environment.getattr(l_2_loop, 'last')):
                        pass
                        t_35.append(
                            ', ',
                        )
                l_2_loop = l_2_r = missing
            elif (environment.getattr(l_1_st, 'multiple') > 1):
                pass
                t_35.append(
                    escape(t_5(environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), t_4(markup_join(('step_round_multiple_', t_5(environment.getattr(l_1_st, 'direction')), ))), l_1_L, n=environment.getattr(l_1_st, 'multiple')))),
                )
            else:
                pass
                t_35.append(
                    escape(t_5(environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), t_4(markup_join(('step_round_', t_5(environment.getattr(l_1_st, 'direction')), ))), l_1_L, name=environment.call(context, (undefined(name='pick') if l_1_pick is missing else l_1_pick), environment.getattr((undefined(name='unknown') if l_1_unknown is missing else l_1_unknown), 'name'), l_1_L)))),
                )
        return concat(t_35)
    context.exported_vars.add('step_title')
    context.vars['step_title'] = l_0_step_title = Macro(environment, macro, 'step_title', ('s', 'st', 'L'), False, False, False, context.eval_ctx.autoescape)
    yield '\n'
    def macro(l_1_s, l_1_st, l_1_with_meaning):
        t_36 = []
        l_1_trivial = resolve('trivial')
        l_1_msg = resolve('msg')
        l_1_lang = resolve('lang')
        l_1_rel = l_1_unknown = missing
        if l_1_s is missing:
            l_1_s = undefined("parameter 's' was not provided", name='s')
        if l_1_st is missing:
            l_1_st = undefined("parameter 'st' was not provided", name='st')
        if l_1_with_meaning is missing:
            l_1_with_meaning = True
        pass
        l_1_rel = (environment.getitem(environment.getattr(l_1_st, 'relations'), 0) if environment.getattr(l_1_st, 'relations') else {'source': None})
        l_1_unknown = environment.getitem(environment.getattr(l_1_st, 'solved_for'), 0)
        if (environment.getattr(l_1_st, 'kind') == 'interval'):
            pass
            if l_1_with_meaning:
                pass
                t_36.append(
                    escape(t_5(environment.call(context, (undefined(name='para') if l_0_para is missing else l_0_para), environment.getattr((undefined(name='rel') if l_1_rel is missing else l_1_rel), 'meaning')))),
                )
            t_36.extend((
                escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'eq'), environment.getitem(environment.getattr(l_1_st, 'equations_latex'), 0)))),
                '\n',
                escape(t_5(environment.call(context, (undefined(name='label') if l_0_label is missing else l_0_label), 'w_interval', k=environment.getattr(l_1_st, 'rounded')))),
                '\n',
                escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'eq'), environment.getattr(environment.getattr(l_1_s, 'answer'), 'interval_latex')))),
                '\n',
            ))
        elif (environment.getattr(l_1_st, 'kind') == 'approximate'):
            pass
            t_36.extend((
                escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'eq'), environment.getitem(environment.getattr(l_1_st, 'equations_latex'), 0)))),
                '\n',
                escape(t_5(environment.call(context, (undefined(name='label') if l_0_label is missing else l_0_label), 'w_leading_term', assumption=environment.getattr(l_1_st, 'assumption')))),
                '\n',
                escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'eq'), t_2(t_15(context.eval_ctx, t_1(environment.getitem(environment.getattr(l_1_st, 'solved_latex'), 0), 'replace'), ' = ', ' \\approx ', 1), 'replace')))),
                '\n',
            ))
            if environment.getattr(l_1_st, 'substituted_latex'):
                pass
                t_36.extend((
                    escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'eq'), t_4(markup_join((t_5(environment.getattr((undefined(name='unknown') if l_1_unknown is missing else l_1_unknown), 'symbol')), ' \\approx ', t_5(environment.getitem(environment.getattr(l_1_st, 'substituted_latex'), 0)), ' = ', t_5(environment.getattr(environment.getitem(environment.getattr(l_1_st, 'results'), 0), 'latex')), )))))),
                    '\n',
                ))
            elif environment.getattr(l_1_st, 'results'):
                pass
                t_36.extend((
                    escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'eq'), t_4(markup_join((t_5(environment.getattr((undefined(name='unknown') if l_1_unknown is missing else l_1_unknown), 'symbol')), ' \\approx ', t_5(environment.getattr(environment.getitem(environment.getattr(l_1_st, 'results'), 0), 'latex')), )))))),
                    '\n',
                ))
        elif (environment.getattr(l_1_st, 'kind') == 'relation'):
            pass
            if l_1_with_meaning:
                pass
                t_36.append(
                    escape(t_5(environment.call(context, (undefined(name='para') if l_0_para is missing else l_0_para), environment.getattr((undefined(name='rel') if l_1_rel is missing else l_1_rel), 'meaning')))),
                )
            t_36.extend((
                escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'eq'), environment.getitem(environment.getattr(l_1_st, 'equations_latex'), 0)))),
                '\n',
            ))
            l_1_trivial = (environment.getattr(l_1_st, 'results') and ((not environment.getattr(l_1_st, 'substituted_latex')) or (environment.getitem(environment.getattr(l_1_st, 'substituted_latex'), 0) == environment.getattr(environment.getitem(environment.getattr(l_1_st, 'results'), 0), 'latex'))))
            if environment.getattr(l_1_st, 'regime'):
                pass
                t_36.extend((
                    escape(t_5(environment.call(context, (undefined(name='label') if l_0_label is missing else l_0_label), 'w_regime_branch', regime=environment.getattr(environment.getattr(l_1_st, 'regime'), 'name'), when=t_2(t_11(t_1(environment.getattr(environment.getattr(l_1_st, 'regime'), 'when_values_latex'), 'math')), 'math')))),
                    '\n',
                    escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'eq'), t_4(markup_join((t_5(environment.getitem(environment.getattr(l_1_st, 'solved_latex'), 0)), t_5((t_4(markup_join((' = ', t_5(environment.getattr(environment.getitem(environment.getattr(l_1_st, 'results'), 0), 'latex')), ))) if (undefined(name='trivial') if l_1_trivial is missing else l_1_trivial) else '')), )))))),
                    '\n',
                ))
            elif environment.getattr(l_1_st, 'inverse'):
                pass
                t_36.extend((
                    escape(t_5(environment.call(context, (undefined(name='label') if l_0_label is missing else l_0_label), 'w_solve_for', name=t_2(t_11(t_1(environment.getattr((undefined(name='unknown') if l_1_unknown is missing else l_1_unknown), 'symbol'), 'math')), 'math')))),
                    '\n',
                    escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'eq'), environment.getitem(environment.getattr(l_1_st, 'solved_latex'), 0)))),
                    '\n',
                ))
            if (environment.getattr(l_1_st, 'results') and (not (undefined(name='trivial') if l_1_trivial is missing else l_1_trivial))):
                pass
                t_36.extend((
                    escape(t_5(environment.call(context, (undefined(name='label') if l_0_label is missing else l_0_label), 'w_substitute'))),
                    '\n',
                    escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'eq'), t_4(markup_join((t_5(environment.getattr((undefined(name='unknown') if l_1_unknown is missing else l_1_unknown), 'symbol')), ' = ', t_5(environment.getitem(environment.getattr(l_1_st, 'substituted_latex'), 0)), ' = ', t_5(environment.getattr(environment.getitem(environment.getattr(l_1_st, 'results'), 0), 'latex')), )))))),
                    '\n',
                ))
            elif (environment.getattr(l_1_st, 'results') and (not environment.getattr(l_1_st, 'regime'))):
                pass
                t_36.extend((
                    escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'eq'), t_4(markup_join((t_5(environment.getattr((undefined(name='unknown') if l_1_unknown is missing else l_1_unknown), 'symbol')), ' = ', t_5(environment.getattr(environment.getitem(environment.getattr(l_1_st, 'results'), 0), 'latex')), )))))),
                    '\n',
                ))
            elif (not environment.getattr(l_1_st, 'results')):
                pass
                t_36.extend((
                    escape(t_5(environment.call(context, (undefined(name='say') if l_0_say is missing else l_0_say), 'w_symbolic', names=t_2(t_11(t_1(t_2(t_6(context.eval_ctx, t_1(t_2(t_10(context, t_1(environment.getattr(l_1_st, 'pending'), 'map'), attribute='symbol'), 'map'), 'join'), ', '), 'join'), 'math')), 'math')))),
                    '\n',
                ))
        elif (environment.getattr(l_1_st, 'kind') == 'system'):
            pass
            if l_1_with_meaning:
                pass
                for l_2_r in t_3(environment.getattr(l_1_st, 'relations')):
                    _loop_vars = {}
                    pass
                    t_36.append(
                        escape(t_5(environment.call(context, (undefined(name='para') if l_0_para is missing else l_0_para), environment.getattr(l_2_r, 'meaning'), _loop_vars=_loop_vars))),
                    )
                l_2_r = missing
            for l_2_e in t_3(environment.getattr(l_1_st, 'equations_latex')):
                _loop_vars = {}
                pass
                t_36.extend((
                    escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'eq'), l_2_e, _loop_vars=_loop_vars))),
                    '\n',
                ))
            l_2_e = missing
            t_36.extend((
                escape(t_5(environment.call(context, (undefined(name='label') if l_0_label is missing else l_0_label), 'w_system', names=t_2(t_11(t_1(t_2(t_6(context.eval_ctx, t_1(t_2(t_10(context, t_1(environment.getattr(l_1_st, 'solved_for'), 'map'), attribute='symbol'), 'map'), 'join'), ', '), 'join'), 'math')), 'math')))),
                '\n',
            ))
            l_2_loop = missing
            for l_2_e, l_2_loop in LoopContext(t_3(environment.getattr(l_1_st, 'solved_latex')), undefined):
                _loop_vars = {}
                pass
                t_36.extend((
                    escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'eq'), t_4(markup_join((t_5(l_2_e), t_5((t_4(markup_join((' = ', t_5(environment.getattr(environment.getitem(environment.getattr(l_1_st, 'results'), environment.getattr(l_2_loop, 'index0')), 'latex')), ))) if (environment.getattr(l_2_loop, 'index0') < t_2(t_7(t_1(environment.getattr(l_1_st, 'results'), 'length')), 'length')) else '')), ))), _loop_vars=_loop_vars))),
                    '\n',
                ))
            l_2_loop = l_2_e = missing
        elif (environment.getattr(l_1_st, 'kind') == 'bound'):
            pass
            if l_1_with_meaning:
                pass
                t_36.append(
                    escape(t_5(environment.call(context, (undefined(name='para') if l_0_para is missing else l_0_para), environment.getattr((undefined(name='rel') if l_1_rel is missing else l_1_rel), 'meaning')))),
                )
            t_36.extend((
                escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'eq'), t_2(t_6(context.eval_ctx, t_1(environment.getattr(l_1_st, 'equations_latex'), 'join'), ',\\qquad '), 'join')))),
                '\n',
            ))
            if (environment.getattr(l_1_st, 'composed_latex') and (environment.getattr(l_1_st, 'composed_latex') != environment.getattr(l_1_st, 'equations_latex'))):
                pass
                t_36.extend((
                    escape(t_5(environment.call(context, (undefined(name='label') if l_0_label is missing else l_0_label), 'w_compose', name=t_2(t_11(t_1(environment.getattr((undefined(name='unknown') if l_1_unknown is missing else l_1_unknown), 'symbol'), 'math')), 'math')))),
                    '\n',
                ))
                for l_2_e in t_3(environment.getattr(l_1_st, 'composed_latex')):
                    _loop_vars = {}
                    pass
                    t_36.extend((
                        escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'eq'), l_2_e, _loop_vars=_loop_vars))),
                        '\n',
                    ))
                l_2_e = missing
            t_36.extend((
                escape(t_5(environment.call(context, (undefined(name='label') if l_0_label is missing else l_0_label), t_4(markup_join(('w_isolate_', t_5(environment.getattr(l_1_st, 'direction')), ))), name=t_2(t_11(t_1(environment.getattr((undefined(name='unknown') if l_1_unknown is missing else l_1_unknown), 'symbol'), 'math')), 'math')))),
                '\n',
            ))
            for l_2_e in t_3(environment.getattr(l_1_st, 'isolated_latex')):
                _loop_vars = {}
                pass
                t_36.extend((
                    escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'eq'), l_2_e, _loop_vars=_loop_vars))),
                    '\n',
                ))
            l_2_e = missing
            if environment.getattr(l_1_st, 'substituted_latex'):
                pass
                t_36.extend((
                    escape(t_5(environment.call(context, (undefined(name='label') if l_0_label is missing else l_0_label), 'w_substitute'))),
                    '\n',
                    escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'eq'), t_4(markup_join((t_5(environment.getattr((undefined(name='unknown') if l_1_unknown is missing else l_1_unknown), 'symbol')), ' ', t_5(environment.getattr(l_1_st, 'op_latex')), ' ', t_5(environment.getitem(environment.getattr(l_1_st, 'substituted_latex'), 0)), ' = ', t_5(environment.getattr(environment.getitem(environment.getattr(l_1_st, 'results'), 0), 'latex')), )))))),
                    '\n',
                ))
            elif environment.getattr(l_1_st, 'results'):
                pass
                t_36.extend((
                    escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'eq'), t_4(markup_join((t_5(environment.getattr((undefined(name='unknown') if l_1_unknown is missing else l_1_unknown), 'symbol')), ' ', t_5(environment.getattr(l_1_st, 'op_latex')), ' ', t_5(environment.getattr(environment.getitem(environment.getattr(l_1_st, 'results'), 0), 'latex')), )))))),
                    '\n',
                ))
        elif (environment.getattr(l_1_st, 'kind') == 'round'):
            pass
            if (environment.getattr(l_1_st, 'multiple') > 1):
                pass
                t_36.extend((
                    escape(t_5(environment.call(context, (undefined(name='label') if l_0_label is missing else l_0_label), t_4(markup_join(('w_round_multiple_', t_5(environment.getattr(l_1_st, 'direction')), ))), n=environment.getattr(l_1_st, 'multiple')))),
                    '\n',
                ))
            else:
                pass
                t_36.extend((
                    escape(t_5(environment.call(context, (undefined(name='label') if l_0_label is missing else l_0_label), t_4(markup_join(('w_round_', t_5(environment.getattr(l_1_st, 'direction')), ))), name=t_2(t_11(t_1(environment.getattr((undefined(name='unknown') if l_1_unknown is missing else l_1_unknown), 'symbol'), 'math')), 'math')))),
                    '\n',
                ))
            t_36.extend((
                escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'eq'), t_4(markup_join((t_5(environment.getattr((undefined(name='unknown') if l_1_unknown is missing else l_1_unknown), 'symbol')), ' = ', t_5(environment.getattr(l_1_st, 'rounding_latex')), )))))),
                '\n',
            ))
        if (((environment.getattr(l_1_st, 'kind') != 'round') and environment.getattr((undefined(name='rel') if l_1_rel is missing else l_1_rel), 'source')) and (environment.getattr(environment.getattr((undefined(name='rel') if l_1_rel is missing else l_1_rel), 'source'), 'ref') in environment.getattr(l_1_s, 'cite_index'))):
            pass
            t_36.extend((
                escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'p'), environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), 'w_colon', (undefined(name='lang') if l_1_lang is missing else l_1_lang), head=environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), 'w_step_source', (undefined(name='lang') if l_1_lang is missing else l_1_lang)), body=t_2(t_16(t_1(environment.call(context, (undefined(name='cite') if l_0_cite is missing else l_0_cite), l_1_s, environment.getattr((undefined(name='rel') if l_1_rel is missing else l_1_rel), 'source')), 'safe')), 'safe'))))),
                '\n',
            ))
        return concat(t_36)
    context.exported_vars.add('step_body')
    context.vars['step_body'] = l_0_step_body = Macro(environment, macro, 'step_body', ('s', 'st', 'with_meaning'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_s, l_1_L):
        t_37 = []
        l_1_msg = resolve('msg')
        l_1_a = l_1_shown = missing
        if l_1_s is missing:
            l_1_s = undefined("parameter 's' was not provided", name='s')
        if l_1_L is missing:
            l_1_L = undefined("parameter 'L' was not provided", name='L')
        pass
        l_1_a = environment.getattr(l_1_s, 'answer')
        l_1_shown = t_2(t_16(t_1(t_4(markup_join((t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'strong'), t_2(t_14(t_1(environment.getattr((undefined(name='a') if l_1_a is missing else l_1_a), 'text'), 'prose')), 'prose'))), t_5((t_4(markup_join((' ', t_5(environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), 'w_base_value', l_1_L, value=environment.getattr((undefined(name='a') if l_1_a is missing else l_1_a), 'base_text'))), ))) if (environment.getattr((undefined(name='a') if l_1_a is missing else l_1_a), 'base_text') and (environment.getattr((undefined(name='a') if l_1_a is missing else l_1_a), 'base_text') != environment.getattr((undefined(name='a') if l_1_a is missing else l_1_a), 'text'))) else '')), ))), 'safe')), 'safe')
        if environment.getattr((undefined(name='a') if l_1_a is missing else l_1_a), 'is_interval'):
            pass
            t_37.append(
                escape(t_5(environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), 'w_answer_interval', l_1_L, name={'en': t_2(t_19(t_1(environment.getattr(environment.getattr(environment.getattr(l_1_s, 'target'), 'name'), 'en'), 'sentence_start')), 'sentence_start'), 'zh': environment.getattr(environment.getattr(environment.getattr(l_1_s, 'target'), 'name'), 'zh')}, interval=t_2(t_11(t_1(environment.getattr((undefined(name='a') if l_1_a is missing else l_1_a), 'interval_latex'), 'math')), 'math')))),
            )
        elif environment.getattr(l_1_s, 'bound'):
            pass
            t_37.append(
                escape(t_5(environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), t_4(markup_join(('w_answer_', t_5(environment.getattr(l_1_s, 'bound')), ))), l_1_L, name=environment.getattr(environment.getattr(l_1_s, 'target'), 'name'), value=(undefined(name='shown') if l_1_shown is missing else l_1_shown)))),
            )
            if environment.getattr(l_1_s, 'multiple_of'):
                pass
                t_37.extend((
                    ' ',
                    escape(t_5(environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), 'w_answer_multiple', l_1_L, multiple=environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), 'multiple_of', l_1_L, n=environment.getattr(l_1_s, 'multiple_of'))))),
                ))
        else:
            pass
            t_37.append(
                escape(t_5(environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), 'w_answer_solve', l_1_L, name={'en': t_2(t_19(t_1(environment.getattr(environment.getattr(environment.getattr(l_1_s, 'target'), 'name'), 'en'), 'sentence_start')), 'sentence_start'), 'zh': environment.getattr(environment.getattr(environment.getattr(l_1_s, 'target'), 'name'), 'zh')}, value=(undefined(name='shown') if l_1_shown is missing else l_1_shown)))),
            )
        return concat(t_37)
    context.exported_vars.add('answer_line')
    context.vars['answer_line'] = l_0_answer_line = Macro(environment, macro, 'answer_line', ('s', 'L'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_s):
        t_38 = []
        if l_1_s is missing:
            l_1_s = undefined("parameter 's' was not provided", name='s')
        pass
        if (environment.getattr(l_1_s, 'regime') and environment.getattr(environment.getattr(l_1_s, 'regime'), 'balanced')):
            pass
            t_38.extend((
                escape(t_5(environment.call(context, (undefined(name='say') if l_0_say is missing else l_0_say), 'w_regime_balanced', regime=environment.getattr(environment.getattr(l_1_s, 'regime'), 'name'), other=environment.getattr(environment.getattr(l_1_s, 'regime'), 'other'), when=t_2(t_11(t_1(environment.getattr(environment.getattr(l_1_s, 'regime'), 'when_met_latex'), 'math')), 'math')))),
                '\n',
            ))
        elif environment.getattr(l_1_s, 'regime'):
            pass
            t_38.extend((
                escape(t_5(environment.call(context, (undefined(name='say') if l_0_say is missing else l_0_say), 'w_regime', regime=environment.getattr(environment.getattr(l_1_s, 'regime'), 'name'), when=t_2(t_11(t_1(environment.getattr(environment.getattr(l_1_s, 'regime'), 'when_latex'), 'math')), 'math')))),
                '\n',
            ))
        return concat(t_38)
    context.exported_vars.add('regime_sentence')
    context.vars['regime_sentence'] = l_0_regime_sentence = Macro(environment, macro, 'regime_sentence', ('s',), False, False, False, context.eval_ctx.autoescape)
    yield '\n'
    def macro(l_1_s, l_1_with_forms):
        t_39 = []
        l_1_lang = resolve('lang')
        l_1_a = missing
        if l_1_s is missing:
            l_1_s = undefined("parameter 's' was not provided", name='s')
        if l_1_with_forms is missing:
            l_1_with_forms = True
        pass
        l_1_a = environment.getattr(l_1_s, 'answer')
        if ((undefined(name='lang') if l_1_lang is missing else l_1_lang) == 'both'):
            pass
            t_39.extend((
                escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'p'), environment.call(context, (undefined(name='answer_line') if l_0_answer_line is missing else l_0_answer_line), l_1_s, 'zh')))),
                escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'p'), environment.call(context, (undefined(name='answer_line') if l_0_answer_line is missing else l_0_answer_line), l_1_s, 'en'), True))),
                '\n',
            ))
        else:
            pass
            t_39.extend((
                escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'p'), environment.call(context, (undefined(name='answer_line') if l_0_answer_line is missing else l_0_answer_line), l_1_s, (undefined(name='lang') if l_1_lang is missing else l_1_lang))))),
                '\n',
            ))
        t_39.extend((
            escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'eq'), environment.getattr((undefined(name='a') if l_1_a is missing else l_1_a), 'statement_latex')))),
            '\n',
        ))
        if (l_1_with_forms and (environment.getattr((undefined(name='a') if l_1_a is missing else l_1_a), 'formula_latex') != environment.getattr((undefined(name='a') if l_1_a is missing else l_1_a), 'exact_latex'))):
            pass
            t_39.extend((
                escape(t_5(environment.call(context, (undefined(name='label') if l_0_label is missing else l_0_label), 'w_in_symbols'))),
                '\n',
                escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'eq'), t_4(markup_join((t_5(environment.getattr((undefined(name='a') if l_1_a is missing else l_1_a), 'symbol')), ' ', t_5(environment.getattr((undefined(name='a') if l_1_a is missing else l_1_a), 'op_latex')), ' ', t_5(environment.getattr((undefined(name='a') if l_1_a is missing else l_1_a), 'formula_latex')), )))))),
                '\n',
            ))
            if environment.getattr((undefined(name='a') if l_1_a is missing else l_1_a), 'reduced_latex'):
                pass
                t_39.extend((
                    escape(t_5(environment.call(context, (undefined(name='label') if l_0_label is missing else l_0_label), 'w_with_constants'))),
                    '\n',
                    escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'eq'), t_4(markup_join((t_5(environment.getattr((undefined(name='a') if l_1_a is missing else l_1_a), 'symbol')), ' ', t_5(environment.getattr((undefined(name='a') if l_1_a is missing else l_1_a), 'op_latex')), ' ', t_5(environment.getattr((undefined(name='a') if l_1_a is missing else l_1_a), 'reduced_latex')), )))))),
                    '\n',
                ))
        t_39.extend((
            escape(t_5(environment.call(context, (undefined(name='regime_sentence') if l_0_regime_sentence is missing else l_0_regime_sentence), l_1_s))),
            '\n',
        ))
        return concat(t_39)
    context.exported_vars.add('answer')
    context.vars['answer'] = l_0_answer = Macro(environment, macro, 'answer', ('s', 'with_forms'), False, False, False, context.eval_ctx.autoescape)
    yield '\n'
    def macro(l_1_s, l_1_note):
        t_40 = []
        l_1_items = missing
        if l_1_s is missing:
            l_1_s = undefined("parameter 's' was not provided", name='s')
        if l_1_note is missing:
            l_1_note = None
        pass
        l_1_items = []
        for l_2_L in t_3(environment.call(context, environment.getattr(environment.call(context, (undefined(name='langs') if l_0_langs is missing else l_0_langs)), 'split'))):
            l_2_pick = resolve('pick')
            l_2_msg = resolve('msg')
            _loop_vars = {}
            pass
            def t_41(fiter):
                for l_3_g in fiter:
                    if environment.getattr(l_3_g, 'assumption'):
                        yield l_3_g
            for l_3_g in t_41(t_3(environment.getattr(l_1_s, 'given'))):
                l_3_name = l_0_name
                _loop_vars = {}
                pass
                l_3_name = t_2(t_16(t_1(t_4(markup_join((t_5(environment.call(context, (undefined(name='pick') if l_2_pick is missing else l_2_pick), environment.getattr(l_3_g, 'name'), l_2_L, _loop_vars=_loop_vars)), ' ', t_5(t_2(t_11(t_1(environment.getattr(l_3_g, 'symbol'), 'math')), 'math')), ))), 'safe')), 'safe')
                _loop_vars['name'] = l_3_name
                if environment.getattr(l_3_g, 'note'):
                    pass
                    t_40.extend((
                        escape(t_5(('' if environment.call(context, environment.getattr((undefined(name='items') if l_1_items is missing else l_1_items), 'append'), environment.call(context, (undefined(name='msg') if l_2_msg is missing else l_2_msg), 'w_assume_default', l_2_L, name=(undefined(name='name') if l_3_name is missing else l_3_name), value=t_2(t_11(t_1(environment.getattr(l_3_g, 'value_latex'), 'math')), 'math'), note=(environment.getattr(l_3_g, 'note_zh') if ((l_2_L == 'zh') and environment.getattr(l_3_g, 'note_zh')) else environment.getattr(l_3_g, 'note')), _loop_vars=_loop_vars), _loop_vars=_loop_vars) else ''))),
                        '\n',
                    ))
                else:
                    pass
                    t_40.extend((
                        escape(t_5(('' if environment.call(context, environment.getattr((undefined(name='items') if l_1_items is missing else l_1_items), 'append'), environment.call(context, (undefined(name='msg') if l_2_msg is missing else l_2_msg), 'w_assume_default_bare', l_2_L, name=(undefined(name='name') if l_3_name is missing else l_3_name), value=t_2(t_11(t_1(environment.getattr(l_3_g, 'value_latex'), 'math')), 'math'), _loop_vars=_loop_vars), _loop_vars=_loop_vars) else ''))),
                        '\n',
                    ))
            l_3_g = l_3_name = missing
            if l_1_note:
                pass
                t_40.append(
                    escape(t_5(('' if environment.call(context, environment.getattr((undefined(name='items') if l_1_items is missing else l_1_items), 'append'), environment.call(context, (undefined(name='pick') if l_2_pick is missing else l_2_pick), l_1_note, l_2_L, _loop_vars=_loop_vars), _loop_vars=_loop_vars) else ''))),
                )
            t_40.extend((
                escape(t_5(('' if environment.call(context, environment.getattr((undefined(name='items') if l_1_items is missing else l_1_items), 'append'), environment.call(context, (undefined(name='msg') if l_2_msg is missing else l_2_msg), t_4(markup_join(('w_assume_units_', t_5(environment.getattr(l_1_s, 'units')), ))), l_2_L, _loop_vars=_loop_vars), _loop_vars=_loop_vars) else ''))),
                '\n',
            ))
        l_2_L = l_2_pick = l_2_msg = missing
        t_40.extend((
            escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'ul'), (undefined(name='items') if l_1_items is missing else l_1_items)))),
            '\n',
        ))
        return concat(t_40)
    context.exported_vars.add('assumption_items')
    context.vars['assumption_items'] = l_0_assumption_items = Macro(environment, macro, 'assumption_items', ('s', 'note'), False, False, False, context.eval_ctx.autoescape)
    yield '\n'
    def macro(l_1_s):
        t_42 = []
        l_1_msg = resolve('msg')
        l_1_lang = resolve('lang')
        l_1_items = missing
        if l_1_s is missing:
            l_1_s = undefined("parameter 's' was not provided", name='s')
        pass
        l_1_items = []
        for l_2_c in t_3(environment.getattr(l_1_s, 'checks')):
            l_2_name = l_0_name
            l_2_item = resolve('item')
            l_2_head = resolve('head')
            l_2_at = missing
            _loop_vars = {}
            pass
            l_2_name = (environment.getattr(environment.getattr(l_2_c, 'entry'), 'name') if environment.getattr(l_2_c, 'entry') else {'en': environment.getattr(l_2_c, 'name'), 'zh': environment.getattr(l_2_c, 'name')})
            _loop_vars['name'] = l_2_name
            l_2_at = t_2(t_11(t_1(t_4(markup_join((t_5(environment.getattr(environment.getattr(l_1_s, 'target'), 'symbol')), ' = ', t_5(environment.getattr(l_2_c, 'at_latex')), ))), 'math')), 'math')
            _loop_vars['at'] = l_2_at
            if (environment.getattr(l_2_c, 'kind') == 'tight'):
                pass
                l_2_item = environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), 'w_check_tight', (undefined(name='lang') if l_1_lang is missing else l_1_lang), name=(undefined(name='name') if l_2_name is missing else l_2_name), at=(undefined(name='at') if l_2_at is missing else l_2_at), _loop_vars=_loop_vars)
                _loop_vars['item'] = l_2_item
            elif (environment.getattr(l_2_c, 'kind') == 'condition'):
                pass
                l_2_head = (environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), 'w_check_condition', (undefined(name='lang') if l_1_lang is missing else l_1_lang), name=(undefined(name='name') if l_2_name is missing else l_2_name), at=(undefined(name='at') if l_2_at is missing else l_2_at), _loop_vars=_loop_vars) if environment.getattr(l_2_c, 'at') else environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), 'w_check_condition_plain', (undefined(name='lang') if l_1_lang is missing else l_1_lang), name=(undefined(name='name') if l_2_name is missing else l_2_name), _loop_vars=_loop_vars))
                _loop_vars['head'] = l_2_head
                l_2_item = environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), 'w_colon', (undefined(name='lang') if l_1_lang is missing else l_1_lang), head=(undefined(name='head') if l_2_head is missing else l_2_head), body=t_2(t_11(t_1(t_4(markup_join((t_5(environment.getattr(l_2_c, 'lhs_latex')), ' ', t_5(environment.getattr(l_2_c, 'op_latex')), ' ', t_5(environment.getattr(l_2_c, 'rhs_latex')), ))), 'math')), 'math'), _loop_vars=_loop_vars)
                _loop_vars['item'] = l_2_item
            elif (environment.getattr(l_2_c, 'kind') == 'regime'):
                pass
                l_2_item = environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), 'w_colon', (undefined(name='lang') if l_1_lang is missing else l_1_lang), head=environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), 'w_check_regime', (undefined(name='lang') if l_1_lang is missing else l_1_lang), name=(undefined(name='name') if l_2_name is missing else l_2_name), regime=(environment.getattr(l_2_c, 'regime') or ''), _loop_vars=_loop_vars), body=t_2(t_11(t_1(t_4(markup_join((t_5(environment.getattr(l_2_c, 'lhs_latex')), ' = ', t_5(environment.getattr(l_2_c, 'rhs_latex')), ))), 'math')), 'math'), _loop_vars=_loop_vars)
                _loop_vars['item'] = l_2_item
            else:
                pass
                l_2_item = environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), 'w_colon', (undefined(name='lang') if l_1_lang is missing else l_1_lang), head=environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), 'w_check_relation', (undefined(name='lang') if l_1_lang is missing else l_1_lang), name=(undefined(name='name') if l_2_name is missing else l_2_name), _loop_vars=_loop_vars), body=t_2(t_11(t_1(t_4(markup_join((t_5(environment.getattr(l_2_c, 'lhs_latex')), ' = ', t_5(environment.getattr(l_2_c, 'rhs_latex')), ))), 'math')), 'math'), _loop_vars=_loop_vars)
                _loop_vars['item'] = l_2_item
            t_42.extend((
                escape(t_5(('' if environment.call(context, environment.getattr((undefined(name='items') if l_1_items is missing else l_1_items), 'append'), t_4(markup_join(('✓ ', t_5((undefined(name='item') if l_2_item is missing else l_2_item)), ))), _loop_vars=_loop_vars) else ''))),
                '\n',
            ))
        l_2_c = l_2_name = l_2_at = l_2_item = l_2_head = missing
        t_42.extend((
            escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'ul'), (undefined(name='items') if l_1_items is missing else l_1_items)))),
            '\n',
            escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'p'), environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), 'w_check_summary', (undefined(name='lang') if l_1_lang is missing else l_1_lang), n=t_2(t_7(t_1(environment.getattr(l_1_s, 'checks'), 'length')), 'length'))))),
            '\n',
        ))
        return concat(t_42)
    context.exported_vars.add('check_items')
    context.vars['check_items'] = l_0_check_items = Macro(environment, macro, 'check_items', ('s',), False, False, False, context.eval_ctx.autoescape)
    yield '\n'
    def macro(l_1_s):
        t_43 = []
        l_1_items = missing
        if l_1_s is missing:
            l_1_s = undefined("parameter 's' was not provided", name='s')
        pass
        l_1_items = []
        for l_2_n in t_3(environment.getattr(l_1_s, 'notes')):
            _loop_vars = {}
            pass
            for l_3_L in t_3(environment.call(context, environment.getattr(environment.call(context, (undefined(name='langs') if l_0_langs is missing else l_0_langs), _loop_vars=_loop_vars), 'split'), _loop_vars=_loop_vars)):
                l_3_msg = resolve('msg')
                _loop_vars = {}
                pass
                t_43.extend((
                    escape(t_5(('' if environment.call(context, environment.getattr((undefined(name='items') if l_1_items is missing else l_1_items), 'append'), environment.call(context, (undefined(name='msg') if l_3_msg is missing else l_3_msg), environment.getattr(l_2_n, 'message'), l_3_L, _loop_vars=_loop_vars, **environment.getattr(l_2_n, 'data')), _loop_vars=_loop_vars) else ''))),
                    '\n',
                ))
            l_3_L = l_3_msg = missing
        l_2_n = missing
        t_43.extend((
            escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'ul'), (undefined(name='items') if l_1_items is missing else l_1_items)))),
            '\n',
        ))
        return concat(t_43)
    context.exported_vars.add('note_items')
    context.vars['note_items'] = l_0_note_items = Macro(environment, macro, 'note_items', ('s',), False, False, False, context.eval_ctx.autoescape)
    yield '\n'
    def macro(l_1_citations):
        t_44 = []
        l_1_items = missing
        if l_1_citations is missing:
            l_1_citations = undefined("parameter 'citations' was not provided", name='citations')
        pass
        l_1_items = []
        for l_2_c in t_3(l_1_citations):
            l_2_lang = resolve('lang')
            _loop_vars = {}
            pass
            t_44.extend((
                escape(t_5(('' if environment.call(context, environment.getattr((undefined(name='items') if l_1_items is missing else l_1_items), 'append'), t_4(markup_join((t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'link'), environment.call(context, (undefined(name='esc') if l_0_esc is missing else l_0_esc), t_2(t_9(t_1(environment.call(context, (undefined(name='ref_title') if l_0_ref_title is missing else l_0_ref_title), l_2_c, _loop_vars=_loop_vars), 'localize'), (undefined(name='lang') if l_2_lang is missing else l_2_lang)), 'localize'), _loop_vars=_loop_vars), environment.getattr(l_2_c, 'url'), _loop_vars=_loop_vars)), ' (', t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'code'), environment.getattr(l_2_c, 'ref'), _loop_vars=_loop_vars)), ')', ))), _loop_vars=_loop_vars) else ''))),
                '\n',
            ))
        l_2_c = l_2_lang = missing
        t_44.extend((
            escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'ol'), (undefined(name='items') if l_1_items is missing else l_1_items)))),
            '\n',
        ))
        return concat(t_44)
    context.exported_vars.add('source_items')
    context.vars['source_items'] = l_0_source_items = Macro(environment, macro, 'source_items', ('citations',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_st, l_1_L):
        t_45 = []
        l_1_msg = resolve('msg')
        l_1_pick = resolve('pick')
        if l_1_st is missing:
            l_1_st = undefined("parameter 'st' was not provided", name='st')
        if l_1_L is missing:
            l_1_L = undefined("parameter 'L' was not provided", name='L')
        pass
        if (environment.getattr(l_1_st, 'kind') == 'round'):
            pass
            if (environment.getattr(l_1_st, 'multiple') > 1):
                pass
                t_45.append(
                    escape(t_5(environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), t_4(markup_join(('step_round_multiple_', t_5(environment.getattr(l_1_st, 'direction')), ))), l_1_L, n=environment.getattr(l_1_st, 'multiple')))),
                )
            else:
                pass
                t_45.append(
                    escape(t_5(environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), t_4(markup_join(('step_round_', t_5(environment.getattr(l_1_st, 'direction')), ))), l_1_L, name=environment.call(context, (undefined(name='pick') if l_1_pick is missing else l_1_pick), environment.getattr(environment.getitem(environment.getattr(l_1_st, 'solved_for'), 0), 'name'), l_1_L)))),
                )
        elif (environment.getattr(l_1_st, 'kind') == 'approximate'):
            pass
            t_45.append(
                escape(t_5(environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), 'step_approximate', l_1_L, assumption=environment.getattr(l_1_st, 'assumption')))),
            )
        elif (environment.getattr(l_1_st, 'kind') == 'optimum'):
            pass
            t_45.append(
                escape(t_5(environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), t_4(markup_join(('step_optimum_', t_5(environment.getattr(l_1_st, 'direction')), ))), l_1_L, name=environment.call(context, (undefined(name='pick') if l_1_pick is missing else l_1_pick), environment.getattr(environment.getattr(l_1_st, 'objective'), 'name'), l_1_L)))),
            )
        elif (environment.getattr(l_1_st, 'kind') == 'system'):
            pass
            l_2_loop = missing
            for l_2_r, l_2_loop in LoopContext(t_3(environment.getattr(l_1_st, 'relations')), undefined):
                _loop_vars = {}
                pass
                t_45.append(
                    escape(t_5(environment.call(context, (undefined(name='pick') if l_1_pick is missing else l_1_pick), environment.getattr(l_2_r, 'name'), l_1_L, _loop_vars=_loop_vars))),
                )
                if (not environment.getattr(l_2_loop, 'last')):
                    pass
                    t_45.append(
                        ', ',
                    )
            l_2_loop = l_2_r = missing
        else:
            pass
            t_45.append(
                escape(t_5(environment.call(context, (undefined(name='pick') if l_1_pick is missing else l_1_pick), environment.getattr(environment.getitem(environment.getattr(l_1_st, 'relations'), 0), 'name'), l_1_L))),
            )
        return concat(t_45)
    context.exported_vars.add('step_name')
    context.vars['step_name'] = l_0_step_name = Macro(environment, macro, 'step_name', ('st', 'L'), False, False, False, context.eval_ctx.autoescape)
    yield '\n'
    def macro(l_1_s, l_1_L):
        t_46 = []
        l_1_msg = resolve('msg')
        l_1_pick = resolve('pick')
        l_1_names = missing
        if l_1_s is missing:
            l_1_s = undefined("parameter 's' was not provided", name='s')
        if l_1_L is missing:
            l_1_L = undefined("parameter 'L' was not provided", name='L')
        pass
        l_1_names = []
        def t_47(fiter):
            for l_2_st in fiter:
                if (environment.getattr(l_2_st, 'kind') != 'round'):
                    yield l_2_st
        for l_2_st in t_47(t_3(environment.getattr(l_1_s, 'steps'))):
            l_2_aside = resolve('aside')
            _loop_vars = {}
            pass
            t_46.append(
                escape(t_5(('' if environment.call(context, environment.getattr((undefined(name='names') if l_1_names is missing else l_1_names), 'append'), (environment.call(context, (undefined(name='aside') if l_2_aside is missing else l_2_aside), t_2(t_16(t_1(environment.call(context, (undefined(name='step_name') if l_0_step_name is missing else l_0_step_name), l_2_st, l_1_L, _loop_vars=_loop_vars), 'safe')), 'safe'), environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), 'w_plan_from', l_1_L, n=environment.getattr(l_2_st, 'reused_from'), _loop_vars=_loop_vars), l_1_L, _loop_vars=_loop_vars) if environment.getattr(l_2_st, 'reused_from') else environment.call(context, (undefined(name='step_name') if l_0_step_name is missing else l_0_step_name), l_2_st, l_1_L, _loop_vars=_loop_vars)), _loop_vars=_loop_vars) else ''))),
            )
        l_2_st = l_2_aside = missing
        if (t_2(t_7(t_1((undefined(name='names') if l_1_names is missing else l_1_names), 'length')), 'length') > 1):
            pass
            t_46.append(
                escape(t_5(environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), 'w_plan_chain', l_1_L, chain=t_2(t_16(t_1(t_2(t_6(context.eval_ctx, t_1((undefined(name='names') if l_1_names is missing else l_1_names), 'join'), ' → '), 'join'), 'safe')), 'safe'), n=t_2(t_7(t_1((undefined(name='names') if l_1_names is missing else l_1_names), 'length')), 'length')))),
            )
        elif (undefined(name='names') if l_1_names is missing else l_1_names):
            pass
            t_46.append(
                escape(t_5(environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), 'w_plan_one', l_1_L, relation=t_2(t_16(t_1(environment.getitem((undefined(name='names') if l_1_names is missing else l_1_names), 0), 'safe')), 'safe')))),
            )
        if environment.getattr(l_1_s, 'bound'):
            pass
            t_46.extend((
                ' ',
                escape(t_5(environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), t_4(markup_join(('w_plan_bound_', t_5(environment.getattr(l_1_s, 'bound')), ))), l_1_L, name=environment.call(context, (undefined(name='pick') if l_1_pick is missing else l_1_pick), environment.getattr(environment.getattr(l_1_s, 'target'), 'name'), l_1_L)))),
            ))
        if environment.getattr(l_1_s, 'optimize'):
            pass
            t_46.extend((
                ' ',
                escape(t_5(environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), t_4(markup_join(('w_plan_optimum_', t_5(environment.getattr(l_1_s, 'optimize')), ))), l_1_L, name=environment.call(context, (undefined(name='pick') if l_1_pick is missing else l_1_pick), environment.getattr(environment.getattr(l_1_s, 'target'), 'name'), l_1_L), objective=environment.call(context, (undefined(name='pick') if l_1_pick is missing else l_1_pick), environment.getattr(environment.getattr(l_1_s, 'objective'), 'name'), l_1_L)))),
            ))
        return concat(t_46)
    context.exported_vars.add('plan_line')
    context.vars['plan_line'] = l_0_plan_line = Macro(environment, macro, 'plan_line', ('s', 'L'), False, False, False, context.eval_ctx.autoescape)
    yield '\n'
    def macro(l_1_s):
        t_48 = []
        l_1_lang = resolve('lang')
        l_1_msg = resolve('msg')
        if l_1_s is missing:
            l_1_s = undefined("parameter 's' was not provided", name='s')
        pass
        if ((undefined(name='lang') if l_1_lang is missing else l_1_lang) == 'both'):
            pass
            t_48.extend((
                escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'p'), t_4(markup_join((t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'label'), environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), 'w_plan', 'zh'))), ' ', t_5(environment.call(context, (undefined(name='plan_line') if l_0_plan_line is missing else l_0_plan_line), l_1_s, 'zh')), )))))),
                escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'p'), t_4(markup_join((t_5(environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), 'w_plan', 'en')), ' ', t_5(environment.call(context, (undefined(name='plan_line') if l_0_plan_line is missing else l_0_plan_line), l_1_s, 'en')), ))), True))),
                '\n',
            ))
        else:
            pass
            t_48.extend((
                escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'p'), t_4(markup_join((t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'label'), environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), 'w_plan', (undefined(name='lang') if l_1_lang is missing else l_1_lang)))), ' ', t_5(environment.call(context, (undefined(name='plan_line') if l_0_plan_line is missing else l_0_plan_line), l_1_s, (undefined(name='lang') if l_1_lang is missing else l_1_lang))), )))))),
                '\n',
            ))
        return concat(t_48)
    context.exported_vars.add('plan')
    context.vars['plan'] = l_0_plan = Macro(environment, macro, 'plan', ('s',), False, False, False, context.eval_ctx.autoescape)
    yield '\n'
    def macro(l_1_s, l_1_st, l_1_with_meaning):
        t_49 = []
        l_1_rel = l_1_src = missing
        if l_1_s is missing:
            l_1_s = undefined("parameter 's' was not provided", name='s')
        if l_1_st is missing:
            l_1_st = undefined("parameter 'st' was not provided", name='st')
        if l_1_with_meaning is missing:
            l_1_with_meaning = True
        pass
        l_1_rel = (environment.getitem(environment.getattr(l_1_st, 'relations'), 0) if environment.getattr(l_1_st, 'relations') else None)
        l_1_src = (environment.call(context, (undefined(name='cite') if l_0_cite is missing else l_0_cite), l_1_s, environment.getattr((undefined(name='rel') if l_1_rel is missing else l_1_rel), 'source')) if ((undefined(name='rel') if l_1_rel is missing else l_1_rel) and environment.getattr((undefined(name='rel') if l_1_rel is missing else l_1_rel), 'source')) else '')
        l_2_loop = missing
        for l_2_L, l_2_loop in LoopContext(t_3(environment.call(context, environment.getattr(environment.call(context, (undefined(name='langs') if l_0_langs is missing else l_0_langs)), 'split'))), undefined):
            l_2_name = l_0_name
            l_2_pick = resolve('pick')
            l_2_lang = resolve('lang')
            l_2_head = missing
            _loop_vars = {}
            pass
            l_2_name = environment.call(context, (undefined(name='step_name') if l_0_step_name is missing else l_0_step_name), l_1_st, l_2_L, _loop_vars=_loop_vars)
            _loop_vars['name'] = l_2_name
            l_2_name = (t_2(t_19(t_1((undefined(name='name') if l_2_name is missing else l_2_name), 'sentence_start')), 'sentence_start') if (l_2_L == 'en') else (undefined(name='name') if l_2_name is missing else l_2_name))
            _loop_vars['name'] = l_2_name
            l_2_head = t_4(markup_join((t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'label'), (undefined(name='name') if l_2_name is missing else l_2_name), _loop_vars=_loop_vars)), t_5((t_4(markup_join((t_5(('：' if (l_2_L == 'zh') else '. ')), t_5(environment.call(context, (undefined(name='pick') if l_2_pick is missing else l_2_pick), environment.getattr((undefined(name='rel') if l_1_rel is missing else l_1_rel), 'meaning'), l_2_L, _loop_vars=_loop_vars)), ))) if ((l_1_with_meaning and (undefined(name='rel') if l_1_rel is missing else l_1_rel)) and (environment.getattr(l_1_st, 'kind') not in ('round',))) else '')), t_5((t_4(markup_join((' ', t_5((undefined(name='src') if l_1_src is missing else l_1_src)), ))) if ((undefined(name='src') if l_1_src is missing else l_1_src) and environment.getattr(l_2_loop, 'last')) else '')), )))
            _loop_vars['head'] = l_2_head
            t_49.extend((
                escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'p'), (undefined(name='head') if l_2_head is missing else l_2_head), ((l_2_L == 'en') and ((undefined(name='lang') if l_2_lang is missing else l_2_lang) == 'both')), _loop_vars=_loop_vars))),
                '\n',
            ))
        l_2_loop = l_2_L = l_2_name = l_2_pick = l_2_head = l_2_lang = missing
        return concat(t_49)
    context.exported_vars.add('step_head')
    context.vars['step_head'] = l_0_step_head = Macro(environment, macro, 'step_head', ('s', 'st', 'with_meaning'), False, False, False, context.eval_ctx.autoescape)
    yield '\n'
    def macro(l_1_s, l_1_st, l_1_with_meaning):
        t_50 = []
        l_1_msg = resolve('msg')
        l_1_lang = resolve('lang')
        if l_1_s is missing:
            l_1_s = undefined("parameter 's' was not provided", name='s')
        if l_1_st is missing:
            l_1_st = undefined("parameter 'st' was not provided", name='st')
        if l_1_with_meaning is missing:
            l_1_with_meaning = True
        pass
        if environment.getattr(l_1_st, 'reused_from'):
            pass
            t_50.extend((
                escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'p'), t_4(markup_join((t_5(environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), 'w_from_question', ((undefined(name='lang') if l_1_lang is missing else l_1_lang) if ((undefined(name='lang') if l_1_lang is missing else l_1_lang) != 'both') else 'zh'), n=environment.getattr(l_1_st, 'reused_from'), value=t_2(t_11(t_1(environment.getattr(l_1_st, 'reused_latex'), 'math')), 'math'))), t_5((t_4(markup_join((' ', t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'small'), environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), 'w_from_question', 'en', n=environment.getattr(l_1_st, 'reused_from'), value=t_2(t_11(t_1(environment.getattr(l_1_st, 'reused_latex'), 'math')), 'math')))), ))) if ((undefined(name='lang') if l_1_lang is missing else l_1_lang) == 'both') else '')), )))))),
                '\n',
            ))
        elif environment.getattr(l_1_st, 'rows'):
            pass
            t_50.extend((
                escape(t_5(environment.call(context, (undefined(name='step_head') if l_0_step_head is missing else l_0_step_head), l_1_s, l_1_st, l_1_with_meaning))),
                escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'keep')))),
                '\n',
                escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'align'), environment.getattr(l_1_st, 'rows')))),
                '\n',
            ))
            if environment.getattr(l_1_st, 'regime'):
                pass
                for l_2_L in t_3(environment.call(context, environment.getattr(environment.call(context, (undefined(name='langs') if l_0_langs is missing else l_0_langs)), 'split'))):
                    _loop_vars = {}
                    pass
                    t_50.extend((
                        escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'p'), environment.call(context, (undefined(name='branch_sentence') if l_0_branch_sentence is missing else l_0_branch_sentence), l_1_st, l_2_L, _loop_vars=_loop_vars), (((undefined(name='lang') if l_1_lang is missing else l_1_lang) == 'both') and (l_2_L == 'en')), _loop_vars=_loop_vars))),
                        '\n',
                    ))
                l_2_L = missing
        else:
            pass
            t_50.extend((
                escape(t_5(environment.call(context, (undefined(name='step_head') if l_0_step_head is missing else l_0_step_head), l_1_s, l_1_st, l_1_with_meaning))),
                '\n',
                escape(t_5(environment.call(context, (undefined(name='step_body') if l_0_step_body is missing else l_0_step_body), l_1_s, l_1_st, False))),
                '\n',
            ))
        return concat(t_50)
    context.exported_vars.add('step_block')
    context.vars['step_block'] = l_0_step_block = Macro(environment, macro, 'step_block', ('s', 'st', 'with_meaning'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_st, l_1_L):
        t_51 = []
        l_1_msg = resolve('msg')
        l_1_branch = missing
        if l_1_st is missing:
            l_1_st = undefined("parameter 'st' was not provided", name='st')
        if l_1_L is missing:
            l_1_L = undefined("parameter 'L' was not provided", name='L')
        pass
        l_1_branch = environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), 'w_regime_branch', l_1_L, regime=environment.getattr(environment.getattr(l_1_st, 'regime'), 'name'), when=t_2(t_11(t_1(environment.getattr(environment.getattr(l_1_st, 'regime'), 'when_values_latex'), 'math')), 'math'))
        t_51.append(
            escape(t_5((t_4(markup_join((t_5((undefined(name='branch') if l_1_branch is missing else l_1_branch)[:-1]), t_5(('。' if (l_1_L == 'zh') else '.')), ))) if (environment.call(context, environment.getattr((undefined(name='branch') if l_1_branch is missing else l_1_branch), 'endswith'), ':') or environment.call(context, environment.getattr((undefined(name='branch') if l_1_branch is missing else l_1_branch), 'endswith'), '：')) else (undefined(name='branch') if l_1_branch is missing else l_1_branch)))),
        )
        return concat(t_51)
    context.exported_vars.add('branch_sentence')
    context.vars['branch_sentence'] = l_0_branch_sentence = Macro(environment, macro, 'branch_sentence', ('st', 'L'), False, False, False, context.eval_ctx.autoescape)
    yield '\n'
    def macro(l_1_s):
        t_52 = []
        l_1_lang = resolve('lang')
        l_1_a = missing
        if l_1_s is missing:
            l_1_s = undefined("parameter 's' was not provided", name='s')
        pass
        l_1_a = environment.getattr(l_1_s, 'answer')
        t_52.extend((
            escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'boxed'), environment.getattr((undefined(name='a') if l_1_a is missing else l_1_a), 'statement_latex')))),
            '\n',
        ))
        if ((undefined(name='lang') if l_1_lang is missing else l_1_lang) == 'both'):
            pass
            t_52.extend((
                escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'p'), environment.call(context, (undefined(name='answer_line') if l_0_answer_line is missing else l_0_answer_line), l_1_s, 'zh')))),
                escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'p'), environment.call(context, (undefined(name='answer_line') if l_0_answer_line is missing else l_0_answer_line), l_1_s, 'en'), True))),
                '\n',
            ))
        else:
            pass
            t_52.extend((
                escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'p'), environment.call(context, (undefined(name='answer_line') if l_0_answer_line is missing else l_0_answer_line), l_1_s, (undefined(name='lang') if l_1_lang is missing else l_1_lang))))),
                '\n',
            ))
        if environment.getattr((undefined(name='a') if l_1_a is missing else l_1_a), 'reduced_latex'):
            pass
            t_52.extend((
                escape(t_5(environment.call(context, (undefined(name='label') if l_0_label is missing else l_0_label), 'w_closed_form', form=t_2(t_11(t_1(t_4(markup_join((t_5(environment.getattr((undefined(name='a') if l_1_a is missing else l_1_a), 'symbol')), ' ', t_5(environment.getattr((undefined(name='a') if l_1_a is missing else l_1_a), 'op_latex')), ' ', t_5(environment.getattr((undefined(name='a') if l_1_a is missing else l_1_a), 'reduced_latex')), ))), 'math')), 'math')))),
                '\n',
            ))
        t_52.extend((
            escape(t_5(environment.call(context, (undefined(name='regime_sentence') if l_0_regime_sentence is missing else l_0_regime_sentence), l_1_s))),
            '\n',
        ))
        return concat(t_52)
    context.exported_vars.add('answer_box')
    context.vars['answer_box'] = l_0_answer_box = Macro(environment, macro, 'answer_box', ('s',), False, False, False, context.eval_ctx.autoescape)
    yield '\n'
    def macro(l_1_s, l_1_note):
        t_53 = []
        l_1_items = missing
        if l_1_s is missing:
            l_1_s = undefined("parameter 's' was not provided", name='s')
        if l_1_note is missing:
            l_1_note = None
        pass
        l_1_items = []
        for l_2_L in t_3(environment.call(context, environment.getattr(environment.call(context, (undefined(name='langs') if l_0_langs is missing else l_0_langs)), 'split'))):
            l_2_pick = resolve('pick')
            _loop_vars = {}
            pass
            if l_1_note:
                pass
                t_53.append(
                    escape(t_5(('' if environment.call(context, environment.getattr((undefined(name='items') if l_1_items is missing else l_1_items), 'append'), environment.call(context, (undefined(name='pick') if l_2_pick is missing else l_2_pick), l_1_note, l_2_L, _loop_vars=_loop_vars), _loop_vars=_loop_vars) else ''))),
                )
            for l_3_n in t_3(environment.getattr(l_1_s, 'notes')):
                l_3_msg = resolve('msg')
                _loop_vars = {}
                pass
                t_53.extend((
                    escape(t_5(('' if environment.call(context, environment.getattr((undefined(name='items') if l_1_items is missing else l_1_items), 'append'), environment.call(context, (undefined(name='msg') if l_3_msg is missing else l_3_msg), environment.getattr(l_3_n, 'message'), l_2_L, _loop_vars=_loop_vars, **environment.getattr(l_3_n, 'data')), _loop_vars=_loop_vars) else ''))),
                    '\n',
                ))
            l_3_n = l_3_msg = missing
            def t_54(fiter):
                for l_3_g in fiter:
                    if environment.getattr(l_3_g, 'assumption'):
                        yield l_3_g
            for l_3_g in t_54(t_3(environment.getattr(l_1_s, 'given'))):
                l_3_name = l_0_name
                l_3_msg = resolve('msg')
                _loop_vars = {}
                pass
                l_3_name = t_2(t_16(t_1(t_4(markup_join((t_5(environment.call(context, (undefined(name='pick') if l_2_pick is missing else l_2_pick), environment.getattr(l_3_g, 'name'), l_2_L, _loop_vars=_loop_vars)), ' ', t_5(t_2(t_11(t_1(environment.getattr(l_3_g, 'symbol'), 'math')), 'math')), ))), 'safe')), 'safe')
                _loop_vars['name'] = l_3_name
                t_53.extend((
                    escape(t_5(('' if environment.call(context, environment.getattr((undefined(name='items') if l_1_items is missing else l_1_items), 'append'), environment.call(context, (undefined(name='msg') if l_3_msg is missing else l_3_msg), 'w_assume_default_bare', l_2_L, name=(undefined(name='name') if l_3_name is missing else l_3_name), value=t_2(t_11(t_1(environment.getattr(l_3_g, 'value_latex'), 'math')), 'math'), _loop_vars=_loop_vars), _loop_vars=_loop_vars) else ''))),
                    '\n',
                ))
            l_3_g = l_3_name = l_3_msg = missing
        l_2_L = l_2_pick = missing
        t_53.extend((
            escape(t_5((environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'ul'), (undefined(name='items') if l_1_items is missing else l_1_items)) if (undefined(name='items') if l_1_items is missing else l_1_items) else ''))),
            '\n',
        ))
        return concat(t_53)
    context.exported_vars.add('notes_list')
    context.vars['notes_list'] = l_0_notes_list = Macro(environment, macro, 'notes_list', ('s', 'note'), False, False, False, context.eval_ctx.autoescape)
    yield '\n'
    def macro(l_1_s, l_1_note):
        t_55 = []
        if l_1_s is missing:
            l_1_s = undefined("parameter 's' was not provided", name='s')
        if l_1_note is missing:
            l_1_note = None
        pass
        t_55.append(
            escape(t_5(('yes' if ((l_1_note or environment.getattr(l_1_s, 'notes')) or t_2(t_8(context.eval_ctx, t_1(t_2(t_18(context, t_1(environment.getattr(l_1_s, 'given'), 'selectattr'), 'assumption'), 'selectattr'), 'list')), 'list')) else ''))),
        )
        return concat(t_55)
    context.exported_vars.add('has_notes')
    context.vars['has_notes'] = l_0_has_notes = Macro(environment, macro, 'has_notes', ('s', 'note'), False, False, False, context.eval_ctx.autoescape)
    yield '\n'
    def macro(l_1_s):
        t_56 = []
        l_1_key = resolve('key')
        l_1_items = l_1_relations = missing
        if l_1_s is missing:
            l_1_s = undefined("parameter 's' was not provided", name='s')
        pass
        l_1_items = []
        l_1_relations = t_2(t_7(t_1(t_2(t_8(context.eval_ctx, t_1(t_2(t_18(context, t_1(environment.getattr(l_1_s, 'checks'), 'selectattr'), 'kind', 'in', ['relation']), 'selectattr'), 'list')), 'list'), 'length')), 'length')
        for l_2_L in t_3(environment.call(context, environment.getattr(environment.call(context, (undefined(name='langs') if l_0_langs is missing else l_0_langs)), 'split'))):
            _loop_vars = {}
            pass
            def t_57(fiter):
                for l_3_c in fiter:
                    if (environment.getattr(l_3_c, 'kind') != 'relation'):
                        yield l_3_c
            for l_3_c in t_57(t_3(environment.getattr(l_1_s, 'checks'))):
                l_3_name = l_0_name
                l_3_msg = resolve('msg')
                l_3_item = resolve('item')
                l_3_head = resolve('head')
                l_3_at = missing
                _loop_vars = {}
                pass
                l_3_name = (environment.getattr(environment.getattr(l_3_c, 'entry'), 'name') if environment.getattr(l_3_c, 'entry') else {'en': environment.getattr(l_3_c, 'name'), 'zh': environment.getattr(l_3_c, 'name')})
                _loop_vars['name'] = l_3_name
                l_3_at = t_2(t_11(t_1(t_4(markup_join((t_5(environment.getattr(environment.getattr(l_1_s, 'target'), 'symbol')), ' = ', t_5(environment.getattr(l_3_c, 'at_latex')), ))), 'math')), 'math')
                _loop_vars['at'] = l_3_at
                if (environment.getattr(l_3_c, 'kind') == 'tight'):
                    pass
                    l_3_item = environment.call(context, (undefined(name='msg') if l_3_msg is missing else l_3_msg), 'w_check_tight', l_2_L, name=(undefined(name='name') if l_3_name is missing else l_3_name), at=(undefined(name='at') if l_3_at is missing else l_3_at), _loop_vars=_loop_vars)
                    _loop_vars['item'] = l_3_item
                elif (environment.getattr(l_3_c, 'kind') == 'condition'):
                    pass
                    l_3_head = (environment.call(context, (undefined(name='msg') if l_3_msg is missing else l_3_msg), 'w_check_condition', l_2_L, name=(undefined(name='name') if l_3_name is missing else l_3_name), at=(undefined(name='at') if l_3_at is missing else l_3_at), _loop_vars=_loop_vars) if environment.getattr(l_3_c, 'at') else environment.call(context, (undefined(name='msg') if l_3_msg is missing else l_3_msg), 'w_check_condition_plain', l_2_L, name=(undefined(name='name') if l_3_name is missing else l_3_name), _loop_vars=_loop_vars))
                    _loop_vars['head'] = l_3_head
                    if environment.getattr(l_3_c, 'equal'):
                        pass
                        l_3_item = t_4(markup_join((t_5((undefined(name='head') if l_3_head is missing else l_3_head)), t_5(environment.call(context, (undefined(name='msg') if l_3_msg is missing else l_3_msg), 'w_check_equality', l_2_L, value=t_2(t_11(t_1(environment.getattr(l_3_c, 'lhs_latex'), 'math')), 'math'), _loop_vars=_loop_vars)), )))
                        _loop_vars['item'] = l_3_item
                    else:
                        pass
                        l_3_item = environment.call(context, (undefined(name='msg') if l_3_msg is missing else l_3_msg), 'w_colon', l_2_L, head=(undefined(name='head') if l_3_head is missing else l_3_head), body=t_2(t_11(t_1(t_4(markup_join((t_5(environment.getattr(l_3_c, 'lhs_latex')), ' ', t_5(environment.getattr(l_3_c, 'op_latex')), ' ', t_5(environment.getattr(l_3_c, 'rhs_latex')), ))), 'math')), 'math'), _loop_vars=_loop_vars)
                        _loop_vars['item'] = l_3_item
                else:
                    pass
                    l_3_item = environment.call(context, (undefined(name='msg') if l_3_msg is missing else l_3_msg), 'w_check_regime_holds', l_2_L, name=(undefined(name='name') if l_3_name is missing else l_3_name), regime=(environment.getattr(l_3_c, 'regime') or ''), _loop_vars=_loop_vars)
                    _loop_vars['item'] = l_3_item
                t_56.extend((
                    escape(t_5(('' if environment.call(context, environment.getattr((undefined(name='items') if l_1_items is missing else l_1_items), 'append'), t_4(markup_join(('✓ ', t_5((undefined(name='item') if l_3_item is missing else l_3_item)), ))), _loop_vars=_loop_vars) else ''))),
                    '\n',
                ))
            l_3_c = l_3_name = l_3_at = l_3_msg = l_3_item = l_3_head = missing
        l_2_L = missing
        t_56.extend((
            escape(t_5((environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'ul'), (undefined(name='items') if l_1_items is missing else l_1_items)) if (undefined(name='items') if l_1_items is missing else l_1_items) else ''))),
            '\n',
        ))
        if (undefined(name='relations') if l_1_relations is missing else l_1_relations):
            pass
            l_1_key = ('w_checks_hold_one' if ((undefined(name='relations') if l_1_relations is missing else l_1_relations) == 1) else 'w_checks_hold')
            for l_2_L in t_3(environment.call(context, environment.getattr(environment.call(context, (undefined(name='langs') if l_0_langs is missing else l_0_langs)), 'split'))):
                l_2_msg = resolve('msg')
                l_2_lang = resolve('lang')
                _loop_vars = {}
                pass
                t_56.extend((
                    escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'p'), t_4(markup_join(('✓ ', t_5(environment.call(context, (undefined(name='msg') if l_2_msg is missing else l_2_msg), (undefined(name='key') if l_1_key is missing else l_1_key), l_2_L, n=(undefined(name='relations') if l_1_relations is missing else l_1_relations), _loop_vars=_loop_vars)), ))), (((undefined(name='lang') if l_2_lang is missing else l_2_lang) == 'both') and (l_2_L == 'en')), _loop_vars=_loop_vars))),
                    '\n',
                ))
            l_2_L = l_2_msg = l_2_lang = missing
        return concat(t_56)
    context.exported_vars.add('checks_short')
    context.vars['checks_short'] = l_0_checks_short = Macro(environment, macro, 'checks_short', ('s',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_s, l_1_h, l_1_ask, l_1_note, l_1_with_sources, l_1_question_heading):
        t_58 = []
        if l_1_s is missing:
            l_1_s = undefined("parameter 's' was not provided", name='s')
        if l_1_h is missing:
            l_1_h = 2
        if l_1_ask is missing:
            l_1_ask = None
        if l_1_note is missing:
            l_1_note = None
        if l_1_with_sources is missing:
            l_1_with_sources = True
        if l_1_question_heading is missing:
            l_1_question_heading = True
        pass
        if l_1_question_heading:
            pass
            t_58.extend((
                escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'h'), l_1_h, environment.call(context, (undefined(name='word') if l_0_word is missing else l_0_word), 'w_question')))),
                '\n',
            ))
        t_58.extend((
            escape(t_5(environment.call(context, (undefined(name='question') if l_0_question is missing else l_0_question), l_1_s, l_1_ask))),
            '\n',
            escape(t_5(environment.call(context, (undefined(name='plan') if l_0_plan is missing else l_0_plan), l_1_s))),
            '\n',
        ))
        if environment.getattr(l_1_s, 'given'):
            pass
            t_58.extend((
                escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'lead'), environment.call(context, (undefined(name='word') if l_0_word is missing else l_0_word), 'w_given'), 8))),
                '\n',
                escape(t_5(environment.call(context, (undefined(name='given') if l_0_given is missing else l_0_given), l_1_s))),
                '\n',
            ))
        t_58.extend((
            escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'lead'), environment.call(context, (undefined(name='word') if l_0_word is missing else l_0_word), 'w_derivation')))),
            '\n',
        ))
        for l_2_st in t_3(environment.getattr(l_1_s, 'steps')):
            _loop_vars = {}
            pass
            t_58.extend((
                escape(t_5(environment.call(context, (undefined(name='step_block') if l_0_step_block is missing else l_0_step_block), l_1_s, l_2_st, _loop_vars=_loop_vars))),
                '\n',
            ))
        l_2_st = missing
        t_58.extend((
            escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'lead'), environment.call(context, (undefined(name='word') if l_0_word is missing else l_0_word), 'w_answer')))),
            '\n',
            escape(t_5(environment.call(context, (undefined(name='answer_box') if l_0_answer_box is missing else l_0_answer_box), l_1_s))),
            '\n',
        ))
        if environment.call(context, (undefined(name='has_notes') if l_0_has_notes is missing else l_0_has_notes), l_1_s, l_1_note):
            pass
            t_58.extend((
                escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'lead'), environment.call(context, (undefined(name='word') if l_0_word is missing else l_0_word), 'w_notes')))),
                '\n',
                escape(t_5(environment.call(context, (undefined(name='notes_list') if l_0_notes_list is missing else l_0_notes_list), l_1_s, l_1_note))),
                '\n',
            ))
        t_58.extend((
            escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'lead'), environment.call(context, (undefined(name='word') if l_0_word is missing else l_0_word), 'w_check')))),
            '\n',
            escape(t_5(environment.call(context, (undefined(name='checks_short') if l_0_checks_short is missing else l_0_checks_short), l_1_s))),
            '\n',
        ))
        if l_1_with_sources:
            pass
            t_58.extend((
                escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'h'), l_1_h, environment.call(context, (undefined(name='word') if l_0_word is missing else l_0_word), 'w_sources')))),
                '\n',
                escape(t_5(environment.call(context, (undefined(name='source_items') if l_0_source_items is missing else l_0_source_items), environment.getattr(l_1_s, 'citations')))),
                '\n',
            ))
        return concat(t_58)
    context.exported_vars.add('solution')
    context.vars['solution'] = l_0_solution = Macro(environment, macro, 'solution', ('s', 'h', 'ask', 'note', 'with_sources', 'question_heading'), False, False, False, context.eval_ctx.autoescape)

blocks = {}
debug_info = '10=133&14=135&16=146&17=153&18=156&20=163&24=170&25=177&26=180&28=187&32=194&36=207&37=227&38=247&40=268&41=276&42=280&46=293&50=304&51=313&52=316&53=319&54=321&56=323&58=329&62=336&63=346&64=348&65=358&66=361&68=366&72=372&73=381&75=382&76=383&77=384&78=390&79=392&80=395&81=398&83=400&84=403&87=407&88=410&90=416&92=419&93=421&94=423&95=432&101=438&102=444&103=449&104=459&109=464&110=473&111=476&112=478&113=481&114=485&115=488&117=493&123=498&124=510&125=513&127=519&128=521&129=527&130=529&131=532&132=534&133=537&134=539&135=542&136=544&137=547&138=559&139=562&141=567&146=573&147=586&148=587&149=588&150=590&151=596&152=598&153=600&154=603&155=606&156=608&157=610&158=613&159=616&160=619&161=622&163=625&164=627&165=633&166=636&167=637&168=640&169=642&170=645&171=648&172=650&174=653&175=656&176=658&177=661&178=664&179=667&180=670&182=673&183=675&184=684&185=688&187=693&188=697&189=701&191=705&192=707&193=713&194=716&195=719&196=722&197=726&200=731&201=734&202=738&204=742&205=745&206=747&207=750&208=753&210=756&211=758&212=761&214=767&216=771&218=774&219=777&225=783&226=792&227=793&228=794&230=797&231=799&232=802&235=813&240=818&241=823&242=826&243=829&244=832&248=839&249=848&250=849&251=852&253=859&255=863&256=866&257=869&258=871&259=874&260=877&261=879&264=883&267=890&268=898&269=899&270=904&271=912&272=914&273=917&276=923&279=927&280=933&282=938&285=945&286=953&287=954&288=961&289=963&290=965&291=967&292=969&293=971&294=973&295=975&296=977&298=981&300=984&302=989&303=991&306=998&307=1004&308=1005&309=1008&310=1013&313=1019&316=1026&317=1032&318=1033&319=1038&321=1043&326=1049&327=1058&328=1060&329=1070&330=1073&331=1075&332=1078&333=1080&334=1083&336=1098&340=1104&341=1114&342=1115&343=1124&346=1127&347=1130&348=1132&349=1135&351=1137&352=1143&355=1153&356=1160&357=1163&359=1170&363=1177&364=1187&365=1188&366=1190&367=1197&369=1199&370=1201&371=1204&375=1212&376=1223&377=1226&378=1229&379=1232&380=1235&381=1238&382=1240&383=1244&387=1251&388=1253&393=1259&394=1268&395=1270&398=1276&399=1283&400=1285&401=1288&402=1291&404=1298&406=1301&407=1304&409=1308&412=1315&413=1323&414=1324&415=1328&416=1333&417=1338&419=1342&420=1351&421=1354&424=1360&427=1367&429=1381&432=1388&433=1389&434=1390&435=1393&436=1405&437=1407&438=1409&439=1411&440=1413&441=1415&442=1417&443=1419&445=1423&448=1427&450=1430&453=1436&454=1439&455=1441&456=1442&457=1448&464=1455&465=1470&466=1473&468=1477&469=1479&470=1482&471=1485&472=1487&474=1491&475=1494&476=1498&478=1503&479=1505&480=1508&481=1511&482=1513&484=1517&485=1519&486=1522&487=1525&488=1527'
