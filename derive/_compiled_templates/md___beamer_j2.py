"""_beamer.j2 (md, tex) compiled by Jinja 3.1.6; written by python -m derive._compiled_templates, do not edit."""
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '_beamer.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_w = l_0_f = l_0_lead = l_0_titles = l_0_frame = l_0_heading = l_0_subheading = l_0_both_lines = l_0_msg_lines = l_0_question_body = l_0_heading_part = l_0_reused_part = l_0_derivation_part = l_0_slide_align = l_0_slide_boxed = l_0_solution_frames = l_0_cell = l_0_widest = l_0_cite_in = l_0_given_table = l_0_checks_part = l_0_summary_defs = l_0_summary_frame = missing
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
        t_6 = environment.filters['batch']
    except KeyError:
        @internalcode
        def t_6(*unused):
            raise TemplateRuntimeError("No filter named 'batch' found.")
    try:
        t_7 = environment.filters['join']
    except KeyError:
        @internalcode
        def t_7(*unused):
            raise TemplateRuntimeError("No filter named 'join' found.")
    try:
        t_8 = environment.filters['length']
    except KeyError:
        @internalcode
        def t_8(*unused):
            raise TemplateRuntimeError("No filter named 'length' found.")
    try:
        t_9 = environment.filters['list']
    except KeyError:
        @internalcode
        def t_9(*unused):
            raise TemplateRuntimeError("No filter named 'list' found.")
    try:
        t_10 = environment.filters['localize']
    except KeyError:
        @internalcode
        def t_10(*unused):
            raise TemplateRuntimeError("No filter named 'localize' found.")
    try:
        t_11 = environment.filters['map']
    except KeyError:
        @internalcode
        def t_11(*unused):
            raise TemplateRuntimeError("No filter named 'map' found.")
    try:
        t_12 = environment.filters['math']
    except KeyError:
        @internalcode
        def t_12(*unused):
            raise TemplateRuntimeError("No filter named 'math' found.")
    try:
        t_13 = environment.filters['rejectattr']
    except KeyError:
        @internalcode
        def t_13(*unused):
            raise TemplateRuntimeError("No filter named 'rejectattr' found.")
    try:
        t_14 = environment.filters['replace']
    except KeyError:
        @internalcode
        def t_14(*unused):
            raise TemplateRuntimeError("No filter named 'replace' found.")
    try:
        t_15 = environment.filters['safe']
    except KeyError:
        @internalcode
        def t_15(*unused):
            raise TemplateRuntimeError("No filter named 'safe' found.")
    try:
        t_16 = environment.filters['tex']
    except KeyError:
        @internalcode
        def t_16(*unused):
            raise TemplateRuntimeError("No filter named 'tex' found.")
    try:
        t_17 = environment.filters['vislen']
    except KeyError:
        @internalcode
        def t_17(*unused):
            raise TemplateRuntimeError("No filter named 'vislen' found.")
    pass
    l_0_w = context.vars['w'] = environment.get_template('_solution.j2', '_beamer.j2').make_module(context.get_all(), True, {'both_lines': l_0_both_lines, 'cell': l_0_cell, 'checks_part': l_0_checks_part, 'cite_in': l_0_cite_in, 'derivation_part': l_0_derivation_part, 'f': l_0_f, 'frame': l_0_frame, 'given_table': l_0_given_table, 'heading': l_0_heading, 'heading_part': l_0_heading_part, 'lead': l_0_lead, 'msg_lines': l_0_msg_lines, 'question_body': l_0_question_body, 'reused_part': l_0_reused_part, 'slide_align': l_0_slide_align, 'slide_boxed': l_0_slide_boxed, 'solution_frames': l_0_solution_frames, 'subheading': l_0_subheading, 'summary_defs': l_0_summary_defs, 'summary_frame': l_0_summary_frame, 'titles': l_0_titles, 'w': l_0_w, 'widest': l_0_widest})
    context.exported_vars.discard('w')
    l_0_f = context.vars['f'] = environment.get_template('_tex.j2', '_beamer.j2')._get_default_module(context)
    context.exported_vars.discard('f')
    yield '\n'
    def macro():
        t_18 = []
        l_1_lang = resolve('lang')
        pass
        t_18.append(
            str(t_5(('zh' if ((undefined(name='lang') if l_1_lang is missing else l_1_lang) == 'both') else (undefined(name='lang') if l_1_lang is missing else l_1_lang)))),
        )
        return concat(t_18)
    context.exported_vars.add('lead')
    context.vars['lead'] = l_0_lead = Macro(environment, macro, 'lead', (), False, False, False, context.eval_ctx.autoescape)
    yield '\n'
    def macro(l_1_texts):
        t_19 = []
        l_1_pick = resolve('pick')
        l_1_lang = resolve('lang')
        if l_1_texts is missing:
            l_1_texts = undefined("parameter 'texts' was not provided", name='texts')
        pass
        t_19.extend((
            '\\title{',
            str(t_5(environment.call(context, (undefined(name='pick') if l_1_pick is missing else l_1_pick), l_1_texts, environment.call(context, (undefined(name='lead') if l_0_lead is missing else l_0_lead))))),
            '}\n',
        ))
        if ((undefined(name='lang') if l_1_lang is missing else l_1_lang) == 'both'):
            pass
            t_19.extend((
                '\\subtitle{',
                str(t_5(environment.call(context, (undefined(name='pick') if l_1_pick is missing else l_1_pick), l_1_texts, 'en'))),
                '}\n',
            ))
        t_19.append(
            '\\author{}\n\\date{}\n',
        )
        return concat(t_19)
    context.exported_vars.add('titles')
    context.vars['titles'] = l_0_titles = Macro(environment, macro, 'titles', ('texts',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_title, l_1_subtitle, l_1_body, l_1_breaks):
        t_20 = []
        if l_1_title is missing:
            l_1_title = undefined("parameter 'title' was not provided", name='title')
        if l_1_subtitle is missing:
            l_1_subtitle = undefined("parameter 'subtitle' was not provided", name='subtitle')
        if l_1_body is missing:
            l_1_body = undefined("parameter 'body' was not provided", name='body')
        if l_1_breaks is missing:
            l_1_breaks = True
        pass
        t_20.append(
            '\\begin{frame}',
        )
        if l_1_breaks:
            pass
            t_20.append(
                '[t,allowframebreaks=1]',
            )
        else:
            pass
            t_20.append(
                '[t]',
            )
        t_20.extend((
            '{',
            str(t_5(l_1_title)),
            '}',
        ))
        if l_1_subtitle:
            pass
            t_20.extend((
                '{',
                str(t_5(l_1_subtitle)),
                '}',
            ))
        t_20.extend((
            '\\par\n',
            str(t_5(l_1_body)),
            '\n\\end{frame}\n',
        ))
        return concat(t_20)
    context.exported_vars.add('frame')
    context.vars['frame'] = l_0_frame = Macro(environment, macro, 'frame', ('title', 'subtitle', 'body', 'breaks'), False, False, False, context.eval_ctx.autoescape)
    yield '\n'
    def macro(l_1_key):
        t_21 = []
        l_1_msg = resolve('msg')
        if l_1_key is missing:
            l_1_key = undefined("parameter 'key' was not provided", name='key')
        pass
        t_21.append(
            str(t_5(environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), l_1_key, environment.call(context, (undefined(name='lead') if l_0_lead is missing else l_0_lead))))),
        )
        return concat(t_21)
    context.exported_vars.add('heading')
    context.vars['heading'] = l_0_heading = Macro(environment, macro, 'heading', ('key',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_key):
        t_22 = []
        l_1_lang = resolve('lang')
        l_1_msg = resolve('msg')
        if l_1_key is missing:
            l_1_key = undefined("parameter 'key' was not provided", name='key')
        pass
        if ((undefined(name='lang') if l_1_lang is missing else l_1_lang) == 'both'):
            pass
            t_22.append(
                str(t_5(environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), l_1_key, 'en'))),
            )
        return concat(t_22)
    context.exported_vars.add('subheading')
    context.vars['subheading'] = l_0_subheading = Macro(environment, macro, 'subheading', ('key',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_texts, l_1_size):
        t_23 = []
        l_1_pick = resolve('pick')
        l_1_lang = resolve('lang')
        if l_1_texts is missing:
            l_1_texts = undefined("parameter 'texts' was not provided", name='texts')
        if l_1_size is missing:
            l_1_size = '\\footnotesize'
        pass
        t_23.extend((
            str(t_5(environment.call(context, (undefined(name='pick') if l_1_pick is missing else l_1_pick), l_1_texts, environment.call(context, (undefined(name='lead') if l_0_lead is missing else l_0_lead))))),
            '\\par\n',
        ))
        if (((undefined(name='lang') if l_1_lang is missing else l_1_lang) == 'both') and environment.call(context, (undefined(name='pick') if l_1_pick is missing else l_1_pick), l_1_texts, 'en')):
            pass
            t_23.extend((
                '{',
                str(t_5(l_1_size)),
                '\\secondlang{',
                str(t_5(environment.call(context, (undefined(name='pick') if l_1_pick is missing else l_1_pick), l_1_texts, 'en'))),
                '}\\par}\n',
            ))
        return concat(t_23)
    context.exported_vars.add('both_lines')
    context.vars['both_lines'] = l_0_both_lines = Macro(environment, macro, 'both_lines', ('texts', 'size'), False, False, False, context.eval_ctx.autoescape)
    yield '\n'
    def macro(l_1_key, l_1_kwargs):
        t_24 = []
        l_1_msg = resolve('msg')
        l_1_lang = resolve('lang')
        if l_1_key is missing:
            l_1_key = undefined("parameter 'key' was not provided", name='key')
        pass
        t_24.extend((
            str(t_5(environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), l_1_key, environment.call(context, (undefined(name='lead') if l_0_lead is missing else l_0_lead)), **l_1_kwargs))),
            '\\par\n',
        ))
        if ((undefined(name='lang') if l_1_lang is missing else l_1_lang) == 'both'):
            pass
            t_24.extend((
                '{\\small\\secondlang{',
                str(t_5(environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), l_1_key, 'en', **l_1_kwargs))),
                '}\\par}\n',
            ))
        return concat(t_24)
    context.exported_vars.add('msg_lines')
    context.vars['msg_lines'] = l_0_msg_lines = Macro(environment, macro, 'msg_lines', ('key',), True, False, False, context.eval_ctx.autoescape)
    def macro(l_1_s, l_1_ask, l_1_note):
        t_25 = []
        l_1_pick = resolve('pick')
        l_1_lang = resolve('lang')
        if l_1_s is missing:
            l_1_s = undefined("parameter 's' was not provided", name='s')
        if l_1_ask is missing:
            l_1_ask = None
        if l_1_note is missing:
            l_1_note = None
        pass
        t_25.extend((
            '\\long\\def\\slidehead{\\relax\n',
            str(t_5(environment.call(context, (undefined(name='heading_part') if l_0_heading_part is missing else l_0_heading_part), l_1_s, l_1_ask))),
            '\n',
            str(t_5(environment.call(context, (undefined(name='reused_part') if l_0_reused_part is missing else l_0_reused_part), l_1_s))),
            '\n}\n\\long\\def\\slidederiv{\\relax\n',
            str(t_5(environment.call(context, (undefined(name='derivation_part') if l_0_derivation_part is missing else l_0_derivation_part), l_1_s))),
            '\n}',
        ))
        if l_1_note:
            pass
            t_25.extend((
                '\\long\\def\\slidenote{\\relax\n{\\small ',
                str(t_5(environment.call(context, (undefined(name='pick') if l_1_pick is missing else l_1_pick), l_1_note, environment.call(context, (undefined(name='lead') if l_0_lead is missing else l_0_lead))))),
                '\\par}\n',
            ))
            if ((undefined(name='lang') if l_1_lang is missing else l_1_lang) == 'both'):
                pass
                t_25.extend((
                    '{\\footnotesize\\secondlang{',
                    str(t_5(environment.call(context, (undefined(name='pick') if l_1_pick is missing else l_1_pick), l_1_note, 'en'))),
                    '}\\par}',
                ))
            t_25.append(
                '}\n',
            )
        else:
            pass
            t_25.append(
                '\\let\\slidenote\\empty\n',
            )
        t_25.append(
            '\\slidequestion\n',
        )
        return concat(t_25)
    context.exported_vars.add('question_body')
    context.vars['question_body'] = l_0_question_body = Macro(environment, macro, 'question_body', ('s', 'ask', 'note'), False, False, False, context.eval_ctx.autoescape)
    yield '\n'
    def macro(l_1_s, l_1_ask):
        t_26 = []
        l_1_msg = resolve('msg')
        if l_1_s is missing:
            l_1_s = undefined("parameter 's' was not provided", name='s')
        if l_1_ask is missing:
            l_1_ask = undefined("parameter 'ask' was not provided", name='ask')
        pass
        if l_1_ask:
            pass
            t_26.extend((
                str(t_5(environment.call(context, (undefined(name='both_lines') if l_0_both_lines is missing else l_0_both_lines), l_1_ask))),
                '\n',
            ))
        else:
            pass
            t_26.extend((
                str(t_5(environment.call(context, (undefined(name='msg_lines') if l_0_msg_lines is missing else l_0_msg_lines), t_4(str_join(('w_ask_', t_5((environment.getattr(l_1_s, 'bound') or 'solve')), ))), name=environment.getattr(environment.getattr(l_1_s, 'target'), 'name'), conditions={'en': t_2(t_7(context.eval_ctx, t_1(t_2(t_11(context, t_1(environment.getattr(l_1_s, 'conditions'), 'map'), attribute='name.en'), 'map'), 'join'), environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), 'w_and', 'en')), 'join'), 'zh': t_2(t_7(context.eval_ctx, t_1(t_2(t_11(context, t_1(environment.getattr(l_1_s, 'conditions'), 'map'), attribute='name.zh'), 'map'), 'join'), environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), 'w_and', 'zh')), 'join')}))),
                '\n',
            ))
        return concat(t_26)
    context.exported_vars.add('heading_part')
    context.vars['heading_part'] = l_0_heading_part = Macro(environment, macro, 'heading_part', ('s', 'ask'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_s):
        t_27 = []
        l_1_reused = missing
        if l_1_s is missing:
            l_1_s = undefined("parameter 's' was not provided", name='s')
        pass
        l_1_reused = []
        def t_28(fiter):
            for l_2_st in fiter:
                if environment.getattr(l_2_st, 'reused_from'):
                    yield l_2_st
        for l_2_st in t_28(t_3(environment.getattr(l_1_s, 'steps'))):
            _loop_vars = {}
            pass
            t_27.append(
                str(t_5(('' if environment.call(context, environment.getattr((undefined(name='reused') if l_1_reused is missing else l_1_reused), 'append'), l_2_st, _loop_vars=_loop_vars) else ''))),
            )
        l_2_st = missing
        if (undefined(name='reused') if l_1_reused is missing else l_1_reused):
            pass
            t_27.append(
                '{\\small\\raggedright ',
            )
            l_2_loop = missing
            for l_2_st, l_2_loop in LoopContext(t_3((undefined(name='reused') if l_1_reused is missing else l_1_reused)), undefined):
                l_2_msg = resolve('msg')
                _loop_vars = {}
                pass
                t_27.extend((
                    '\\mbox{',
                    str(t_5(environment.call(context, (undefined(name='msg') if l_2_msg is missing else l_2_msg), 'w_from_question', environment.call(context, (undefined(name='lead') if l_0_lead is missing else l_0_lead), _loop_vars=_loop_vars), n=environment.getattr(l_2_st, 'reused_from'), value=t_2(t_12(t_1(environment.getattr(l_2_st, 'reused_latex'), 'math')), 'math'), _loop_vars=_loop_vars))),
                    '}',
                ))
                if (not environment.getattr(l_2_loop, 'last')):
                    pass
                    t_27.append(
                        '\\quad ',
                    )
            l_2_loop = l_2_st = l_2_msg = missing
            t_27.append(
                '\\par}\n',
            )
        return concat(t_27)
    context.exported_vars.add('reused_part')
    context.vars['reused_part'] = l_0_reused_part = Macro(environment, macro, 'reused_part', ('s',), False, False, False, context.eval_ctx.autoescape)
    yield '\n'
    def macro(l_1_s):
        t_29 = []
        l_1_namespace = resolve('namespace')
        l_1_answer = l_1_shown = l_1_block = l_1_todo = missing
        if l_1_s is missing:
            l_1_s = undefined("parameter 's' was not provided", name='s')
        pass
        l_1_answer = environment.getattr(environment.getattr(l_1_s, 'answer'), 'statement_latex')
        l_1_shown = environment.call(context, (undefined(name='namespace') if l_1_namespace is missing else l_1_namespace), boxed=False)
        l_1_block = []
        l_1_todo = t_2(t_9(context.eval_ctx, t_1(t_2(t_13(context, t_1(environment.getattr(l_1_s, 'steps'), 'rejectattr'), 'reused_from'), 'rejectattr'), 'list')), 'list')
        l_2_loop = missing
        for l_2_st, l_2_loop in LoopContext(t_3((undefined(name='todo') if l_1_todo is missing else l_1_todo)), undefined):
            l_2_rows = resolve('rows')
            l_2_rhs = resolve('rhs')
            l_2_lang = resolve('lang')
            _loop_vars = {}
            pass
            if environment.getattr(l_2_st, 'rows'):
                pass
                l_2_rows = environment.getattr(l_2_st, 'rows')
                _loop_vars['rows'] = l_2_rows
                if ((environment.getattr(l_2_loop, 'last') and (not environment.getattr(environment.getattr(l_1_s, 'answer'), 'is_interval'))) and environment.call(context, environment.getattr(environment.getitem(environment.getitem((undefined(name='rows') if l_2_rows is missing else l_2_rows), -1), 2), 'endswith'), environment.getattr(environment.getattr(l_1_s, 'answer'), 'latex'), _loop_vars=_loop_vars)):
                    pass
                    l_2_rhs = environment.getitem(environment.getitem((undefined(name='rows') if l_2_rows is missing else l_2_rows), -1), 2)
                    _loop_vars['rhs'] = l_2_rhs
                    l_2_rows = environment.call_binop(context, '+', (undefined(name='rows') if l_2_rows is missing else l_2_rows)[:-1], [[environment.getitem(environment.getitem((undefined(name='rows') if l_2_rows is missing else l_2_rows), -1), 0), environment.getitem(environment.getitem((undefined(name='rows') if l_2_rows is missing else l_2_rows), -1), 1), t_4(str_join((t_5((undefined(name='rhs') if l_2_rhs is missing else l_2_rhs)[:(t_2(t_8(t_1((undefined(name='rhs') if l_2_rhs is missing else l_2_rhs), 'length')), 'length') - t_2(t_8(t_1(environment.getattr(environment.getattr(l_1_s, 'answer'), 'latex'), 'length')), 'length'))]), '\\boxed{', t_5(environment.getattr(environment.getattr(l_1_s, 'answer'), 'latex')), '}', )))]])
                    _loop_vars['rows'] = l_2_rows
                    if not isinstance(l_1_shown, Namespace):
                        raise TemplateRuntimeError("cannot assign attribute on non-namespace object")
                    l_1_shown['boxed'] = True
                if ((t_2(t_8(t_1((undefined(name='rows') if l_2_rows is missing else l_2_rows), 'length')), 'length') > 1) and (undefined(name='block') if l_1_block is missing else l_1_block)):
                    pass
                    t_29.extend((
                        '\\slideblock{\\relax\n',
                        str(t_5(environment.call(context, (undefined(name='slide_align') if l_0_slide_align is missing else l_0_slide_align), (undefined(name='block') if l_1_block is missing else l_1_block), _loop_vars=_loop_vars))),
                        '\n}\n',
                        str(t_5(('' if environment.call(context, environment.getattr((undefined(name='block') if l_1_block is missing else l_1_block), 'clear'), _loop_vars=_loop_vars) else ''))),
                        '\n',
                    ))
                for l_3_r in t_3((undefined(name='rows') if l_2_rows is missing else l_2_rows)):
                    _loop_vars = {}
                    pass
                    if (environment.call(context, environment.getattr(environment.getitem(l_3_r, 0), 'startswith'), '\\Leftrightarrow', _loop_vars=_loop_vars) and (t_2(t_17(t_1(environment.getitem(l_3_r, 0), 'vislen')), 'vislen') > 16)):
                        pass
                    else:
                        pass
                        t_29.extend((
                            str(t_5(('' if environment.call(context, environment.getattr((undefined(name='block') if l_1_block is missing else l_1_block), 'append'), l_3_r, _loop_vars=_loop_vars) else ''))),
                            '\n',
                        ))
                l_3_r = missing
            if ((((not environment.getattr(l_2_st, 'rows')) or environment.getattr(l_2_st, 'regime')) or environment.getattr(l_2_loop, 'last')) or (t_2(t_8(t_1(environment.getattr(l_2_st, 'rows'), 'length')), 'length') > 1)):
                pass
                t_29.append(
                    '\\slideblock{\\relax\n',
                )
                if (undefined(name='block') if l_1_block is missing else l_1_block):
                    pass
                    for l_3_chunk in t_3(t_2(t_6(t_1((undefined(name='block') if l_1_block is missing else l_1_block), 'batch'), 5), 'batch')):
                        _loop_vars = {}
                        pass
                        t_29.extend((
                            str(t_5(environment.call(context, (undefined(name='slide_align') if l_0_slide_align is missing else l_0_slide_align), l_3_chunk, _loop_vars=_loop_vars))),
                            '\n',
                        ))
                    l_3_chunk = missing
                    t_29.extend((
                        str(t_5(('' if environment.call(context, environment.getattr((undefined(name='block') if l_1_block is missing else l_1_block), 'clear'), _loop_vars=_loop_vars) else ''))),
                        '\n',
                    ))
                if environment.getattr(l_2_st, 'regime'):
                    pass
                    t_29.extend((
                        '{\\small ',
                        str(t_5(environment.call(context, environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'branch_sentence'), l_2_st, environment.call(context, (undefined(name='lead') if l_0_lead is missing else l_0_lead), _loop_vars=_loop_vars), _loop_vars=_loop_vars))),
                        '\\par}\n',
                    ))
                    if ((undefined(name='lang') if l_2_lang is missing else l_2_lang) == 'both'):
                        pass
                        t_29.extend((
                            '{\\footnotesize\\secondlang{',
                            str(t_5(environment.call(context, environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'branch_sentence'), l_2_st, 'en', _loop_vars=_loop_vars))),
                            '}\\par}',
                        ))
                elif (not environment.getattr(l_2_st, 'rows')):
                    pass
                    t_29.extend((
                        str(t_5(environment.call(context, environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'step_body'), l_1_s, l_2_st, False, _loop_vars=_loop_vars))),
                        '\n',
                    ))
                t_29.append(
                    '}\n',
                )
        l_2_loop = l_2_st = l_2_rows = l_2_rhs = l_2_lang = missing
        if (not environment.getattr((undefined(name='shown') if l_1_shown is missing else l_1_shown), 'boxed')):
            pass
            t_29.extend((
                '\\slideblock{\\relax\n',
                str(t_5(environment.call(context, (undefined(name='slide_boxed') if l_0_slide_boxed is missing else l_0_slide_boxed), (undefined(name='answer') if l_1_answer is missing else l_1_answer)))),
                '\n}\n',
            ))
        return concat(t_29)
    context.exported_vars.add('derivation_part')
    context.vars['derivation_part'] = l_0_derivation_part = Macro(environment, macro, 'derivation_part', ('s',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_rows):
        t_30 = []
        if l_1_rows is missing:
            l_1_rows = undefined("parameter 'rows' was not provided", name='rows')
        pass
        t_30.append(
            '\\global\\slideleft=0pt',
        )
        for l_2_r in t_3(l_1_rows):
            _loop_vars = {}
            pass
            t_30.extend((
                '\\slideleftof{',
                str(t_5(environment.getitem(l_2_r, 0))),
                '}',
            ))
        l_2_r = missing
        t_30.append(
            '\\begin{equation*}\\begin{aligned}\n',
        )
        l_2_loop = missing
        for l_2_r, l_2_loop in LoopContext(t_3(l_1_rows), undefined):
            _loop_vars = {}
            pass
            if (' = ' in environment.getitem(l_2_r, 2)):
                pass
                t_30.extend((
                    str(t_5(environment.getitem(l_2_r, 0))),
                    ' &\\slidefit{ {}',
                    str(t_5(environment.getitem(l_2_r, 1))),
                    ' ',
                    str(t_5(environment.getitem(l_2_r, 2))),
                    '}{ {}',
                    str(t_5(environment.getitem(l_2_r, 1))),
                    ' ',
                    str(t_5(environment.getitem(environment.call(context, environment.getattr(environment.getitem(l_2_r, 2), 'split'), ' = ', _loop_vars=_loop_vars), -1))),
                    '}',
                ))
                if (not environment.getattr(l_2_loop, 'last')):
                    pass
                    t_30.append(
                        ' \\\\',
                    )
            else:
                pass
                t_30.extend((
                    str(t_5(environment.getitem(l_2_r, 0))),
                    ' &\\slidewrap{ {}',
                    str(t_5(environment.getitem(l_2_r, 1))),
                    ' ',
                    str(t_5(environment.getitem(l_2_r, 2))),
                    '}',
                ))
                if (not environment.getattr(l_2_loop, 'last')):
                    pass
                    t_30.append(
                        ' \\\\',
                    )
            t_30.append(
                '\n',
            )
        l_2_loop = l_2_r = missing
        t_30.append(
            '\\end{aligned}\\end{equation*}\n',
        )
        return concat(t_30)
    context.exported_vars.add('slide_align')
    context.vars['slide_align'] = l_0_slide_align = Macro(environment, macro, 'slide_align', ('rows',), False, False, False, context.eval_ctx.autoescape)
    yield '\n'
    def macro(l_1_latex):
        t_31 = []
        if l_1_latex is missing:
            l_1_latex = undefined("parameter 'latex' was not provided", name='latex')
        pass
        t_31.extend((
            '\\slidemath{\\boxed{',
            str(t_5(l_1_latex)),
            '}}\\begin{equation*}\\boxed{',
            str(t_5(l_1_latex)),
            '}\\end{equation*}\n',
        ))
        return concat(t_31)
    context.exported_vars.add('slide_boxed')
    context.vars['slide_boxed'] = l_0_slide_boxed = Macro(environment, macro, 'slide_boxed', ('latex',), False, False, False, context.eval_ctx.autoescape)
    yield '\n'
    def macro(l_1_s, l_1_ask, l_1_note, l_1_qtitle):
        t_32 = []
        if l_1_s is missing:
            l_1_s = undefined("parameter 's' was not provided", name='s')
        if l_1_ask is missing:
            l_1_ask = None
        if l_1_note is missing:
            l_1_note = None
        if l_1_qtitle is missing:
            l_1_qtitle = None
        pass
        t_32.extend((
            str(t_5(environment.call(context, (undefined(name='frame') if l_0_frame is missing else l_0_frame), (environment.getitem(l_1_qtitle, environment.call(context, (undefined(name='lead') if l_0_lead is missing else l_0_lead))) if l_1_qtitle else environment.call(context, (undefined(name='heading') if l_0_heading is missing else l_0_heading), 'w_question')), '', environment.call(context, (undefined(name='question_body') if l_0_question_body is missing else l_0_question_body), l_1_s, l_1_ask, l_1_note)))),
            '\n',
        ))
        return concat(t_32)
    context.exported_vars.add('solution_frames')
    context.vars['solution_frames'] = l_0_solution_frames = Macro(environment, macro, 'solution_frames', ('s', 'ask', 'note', 'qtitle'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_texts):
        t_33 = []
        l_1_lang = resolve('lang')
        if l_1_texts is missing:
            l_1_texts = undefined("parameter 'texts' was not provided", name='texts')
        pass
        if ((undefined(name='lang') if l_1_lang is missing else l_1_lang) == 'both'):
            pass
            t_33.append(
                str(t_5(environment.getitem(l_1_texts, 0))),
            )
            if (environment.getitem(l_1_texts, 1) and (environment.getitem(l_1_texts, 1) != environment.getitem(l_1_texts, 0))):
                pass
                t_33.extend((
                    '\\par\\footnotesize\\secondlang{',
                    str(t_5(environment.getitem(l_1_texts, 1))),
                    '}',
                ))
        else:
            pass
            t_33.append(
                str(t_5((environment.getitem(l_1_texts, 0) if ((undefined(name='lang') if l_1_lang is missing else l_1_lang) == 'zh') else environment.getitem(l_1_texts, 1)))),
            )
        return concat(t_33)
    context.exported_vars.add('cell')
    context.vars['cell'] = l_0_cell = Macro(environment, macro, 'cell', ('texts',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_dimen, l_1_texts):
        t_34 = []
        l_1_lang = resolve('lang')
        if l_1_dimen is missing:
            l_1_dimen = undefined("parameter 'dimen' was not provided", name='dimen')
        if l_1_texts is missing:
            l_1_texts = undefined("parameter 'texts' was not provided", name='texts')
        pass
        if ((undefined(name='lang') if l_1_lang is missing else l_1_lang) == 'both'):
            pass
            t_34.extend((
                '\\slidewidest',
                str(t_5(l_1_dimen)),
                '{',
                str(t_5(environment.getitem(l_1_texts, 0))),
                '}',
            ))
            if (environment.getitem(l_1_texts, 1) and (environment.getitem(l_1_texts, 1) != environment.getitem(l_1_texts, 0))):
                pass
                t_34.extend((
                    '\\slidewidest',
                    str(t_5(l_1_dimen)),
                    '{\\footnotesize\\secondlang{',
                    str(t_5(environment.getitem(l_1_texts, 1))),
                    '}}',
                ))
        else:
            pass
            t_34.extend((
                '\\slidewidest',
                str(t_5(l_1_dimen)),
                '{',
                str(t_5((environment.getitem(l_1_texts, 0) if ((undefined(name='lang') if l_1_lang is missing else l_1_lang) == 'zh') else environment.getitem(l_1_texts, 1)))),
                '}',
            ))
        return concat(t_34)
    context.exported_vars.add('widest')
    context.vars['widest'] = l_0_widest = Macro(environment, macro, 'widest', ('dimen', 'texts'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_s, l_1_source, l_1_L):
        t_35 = []
        if l_1_s is missing:
            l_1_s = undefined("parameter 's' was not provided", name='s')
        if l_1_source is missing:
            l_1_source = undefined("parameter 'source' was not provided", name='source')
        if l_1_L is missing:
            l_1_L = undefined("parameter 'L' was not provided", name='L')
        pass
        if (l_1_source and (environment.getattr(l_1_source, 'ref') in environment.getattr(l_1_s, 'cite_index'))):
            pass
            t_35.extend((
                '[',
                str(t_5(environment.getitem(environment.getattr(l_1_s, 'cite_index'), environment.getattr(l_1_source, 'ref')))),
                ']',
            ))
            if environment.getattr(l_1_source, 'locator'):
                pass
                t_35.extend((
                    ' ',
                    str(t_5(t_2(t_16(t_1(t_2(t_10(t_1(environment.getattr(l_1_source, 'locator'), 'localize'), l_1_L), 'localize'), 'tex')), 'tex'))),
                ))
        return concat(t_35)
    context.exported_vars.add('cite_in')
    context.vars['cite_in'] = l_0_cite_in = Macro(environment, macro, 'cite_in', ('s', 'source', 'L'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_s):
        t_36 = []
        l_1_dimens = resolve('dimens')
        l_1_head = resolve('head')
        l_1_rows = resolve('rows')
        if l_1_s is missing:
            l_1_s = undefined("parameter 's' was not provided", name='s')
        pass
        if environment.getattr(l_1_s, 'given'):
            pass
            l_1_dimens = ['\\slidetablename', '\\slidetablesym', '\\slidetableval', '\\slidetablesrc']
            l_1_head = []
            for l_2_key in t_3(['w_col_quantity', 'w_col_symbol', 'w_col_value', 'w_col_source']):
                l_2_msg = resolve('msg')
                _loop_vars = {}
                pass
                t_36.extend((
                    str(t_5(('' if environment.call(context, environment.getattr((undefined(name='head') if l_1_head is missing else l_1_head), 'append'), [environment.call(context, (undefined(name='msg') if l_2_msg is missing else l_2_msg), l_2_key, 'zh', _loop_vars=_loop_vars), environment.call(context, (undefined(name='msg') if l_2_msg is missing else l_2_msg), l_2_key, 'en', _loop_vars=_loop_vars)], _loop_vars=_loop_vars) else ''))),
                    '\n',
                ))
            l_2_key = l_2_msg = missing
            l_1_rows = []
            for l_2_g in t_3(environment.getattr(l_1_s, 'given')):
                l_2_pick = resolve('pick')
                l_2_sym = l_2_value = missing
                _loop_vars = {}
                pass
                (l_2_sym, l_2_value) = (t_2(t_12(t_1(environment.getattr(l_2_g, 'symbol'), 'math')), 'math'), t_2(t_12(t_1(environment.getattr(l_2_g, 'value_latex'), 'math')), 'math'))
                _loop_vars.update({'sym': l_2_sym, 'value': l_2_value})
                t_36.extend((
                    str(t_5(('' if environment.call(context, environment.getattr((undefined(name='rows') if l_1_rows is missing else l_1_rows), 'append'), [[environment.call(context, (undefined(name='pick') if l_2_pick is missing else l_2_pick), environment.getattr(l_2_g, 'name'), 'zh', _loop_vars=_loop_vars), environment.call(context, (undefined(name='pick') if l_2_pick is missing else l_2_pick), environment.getattr(l_2_g, 'name'), 'en', _loop_vars=_loop_vars)], [(undefined(name='sym') if l_2_sym is missing else l_2_sym), (undefined(name='sym') if l_2_sym is missing else l_2_sym)], [(undefined(name='value') if l_2_value is missing else l_2_value), (undefined(name='value') if l_2_value is missing else l_2_value)], [environment.call(context, (undefined(name='cite_in') if l_0_cite_in is missing else l_0_cite_in), l_1_s, environment.getattr(l_2_g, 'source'), 'zh', _loop_vars=_loop_vars), environment.call(context, (undefined(name='cite_in') if l_0_cite_in is missing else l_0_cite_in), l_1_s, environment.getattr(l_2_g, 'source'), 'en', _loop_vars=_loop_vars)]], _loop_vars=_loop_vars) else ''))),
                    '\n',
                ))
            l_2_g = l_2_sym = l_2_value = l_2_pick = missing
            t_36.append(
                '{\\small\\slidetablename=0pt\\slidetablesym=0pt\\slidetableval=0pt\\slidetablesrc=0pt\n',
            )
            l_2_loop = missing
            for l_2_r, l_2_loop in LoopContext(t_3(environment.call_binop(context, '+', [(undefined(name='head') if l_1_head is missing else l_1_head)], (undefined(name='rows') if l_1_rows is missing else l_1_rows))), undefined):
                _loop_vars = {}
                pass
                l_3_loop = missing
                for l_3_c, l_3_loop in LoopContext(t_3(l_2_r), undefined):
                    _loop_vars = {}
                    pass
                    t_36.append(
                        str(t_5(environment.call(context, (undefined(name='widest') if l_0_widest is missing else l_0_widest), environment.getitem((undefined(name='dimens') if l_1_dimens is missing else l_1_dimens), environment.getattr(l_3_loop, 'index0')), l_3_c, _loop_vars=_loop_vars))),
                    )
                l_3_loop = l_3_c = missing
                t_36.append(
                    '\n',
                )
            l_2_loop = l_2_r = missing
            t_36.append(
                '\\slidetable\n\\slidetablerow{\\toprule ',
            )
            l_2_loop = missing
            for l_2_c, l_2_loop in LoopContext(t_3((undefined(name='head') if l_1_head is missing else l_1_head)), undefined):
                _loop_vars = {}
                pass
                t_36.append(
                    str(t_5(environment.call(context, (undefined(name='cell') if l_0_cell is missing else l_0_cell), l_2_c, _loop_vars=_loop_vars))),
                )
                if (not environment.getattr(l_2_loop, 'last')):
                    pass
                    t_36.append(
                        ' & ',
                    )
            l_2_loop = l_2_c = missing
            t_36.append(
                ' \\\\ \\midrule}\\nobreak\\vskip 2pt\n',
            )
            l_2_loop = missing
            for l_2_g, l_2_loop in LoopContext(t_3(environment.getattr(l_1_s, 'given')), undefined):
                l_2_lang = resolve('lang')
                l_2_from = missing
                _loop_vars = {}
                pass
                l_2_from = [environment.call(context, environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'origin'), l_2_g, 'zh', _loop_vars=_loop_vars), environment.call(context, environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'origin'), l_2_g, 'en', _loop_vars=_loop_vars)]
                _loop_vars['from'] = l_2_from
                if (environment.getattr(l_2_loop, 'first') or ((undefined(name='from') if l_2_from is missing else l_2_from) != [environment.call(context, environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'origin'), environment.getattr(l_2_loop, 'previtem'), 'zh', _loop_vars=_loop_vars), environment.call(context, environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'origin'), environment.getattr(l_2_loop, 'previtem'), 'en', _loop_vars=_loop_vars)])):
                    pass
                    if (not environment.getattr(l_2_loop, 'first')):
                        pass
                        t_36.append(
                            '\\vskip 3pt',
                        )
                    t_36.extend((
                        '\\par\\noindent\\textit{',
                        str(t_5((environment.getitem((undefined(name='from') if l_2_from is missing else l_2_from), 1) if ((undefined(name='lang') if l_2_lang is missing else l_2_lang) == 'en') else environment.getitem((undefined(name='from') if l_2_from is missing else l_2_from), 0)))),
                        '}',
                    ))
                    if ((undefined(name='lang') if l_2_lang is missing else l_2_lang) == 'both'):
                        pass
                        t_36.extend((
                            '\\quad{\\footnotesize\\secondlang{',
                            str(t_5(environment.getitem((undefined(name='from') if l_2_from is missing else l_2_from), 1))),
                            '}}',
                        ))
                    t_36.append(
                        '\\par\\nobreak\n',
                    )
                t_36.append(
                    '\\slidetablerow{',
                )
                l_3_loop = missing
                for l_3_c, l_3_loop in LoopContext(t_3(environment.getitem((undefined(name='rows') if l_1_rows is missing else l_1_rows), environment.getattr(l_2_loop, 'index0'))), undefined):
                    _loop_vars = {}
                    pass
                    t_36.append(
                        str(t_5(environment.call(context, (undefined(name='cell') if l_0_cell is missing else l_0_cell), l_3_c, _loop_vars=_loop_vars))),
                    )
                    if (not environment.getattr(l_3_loop, 'last')):
                        pass
                        t_36.append(
                            ' & ',
                        )
                l_3_loop = l_3_c = missing
                t_36.append(
                    ' \\\\',
                )
                if environment.getattr(l_2_loop, 'last'):
                    pass
                    t_36.append(
                        ' \\bottomrule',
                    )
                t_36.append(
                    '}\n',
                )
            l_2_loop = l_2_g = l_2_from = l_2_lang = missing
            t_36.append(
                '}\n',
            )
        return concat(t_36)
    context.exported_vars.add('given_table')
    context.vars['given_table'] = l_0_given_table = Macro(environment, macro, 'given_table', ('s',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_s):
        t_37 = []
        l_1_lang = resolve('lang')
        l_1_msg = resolve('msg')
        if l_1_s is missing:
            l_1_s = undefined("parameter 's' was not provided", name='s')
        pass
        t_37.extend((
            '{\\csname @beginparpenalty\\endcsname=10000\n\\medskip\n\\textbf{',
            str(t_5(environment.call(context, (undefined(name='heading') if l_0_heading is missing else l_0_heading), 'w_check'))),
            '}',
        ))
        if ((undefined(name='lang') if l_1_lang is missing else l_1_lang) == 'both'):
            pass
            t_37.extend((
                '\\quad{\\footnotesize\\secondlang{',
                str(t_5(environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), 'w_check', 'en'))),
                '}}',
            ))
        t_37.extend((
            '\\par\\nobreak\n',
            str(t_5(t_2(t_14(context.eval_ctx, t_1(environment.call(context, environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'checks_short'), l_1_s), 'replace'), '\\item ✓ ', '\\item[✓] '), 'replace'))),
            '}\n',
        ))
        return concat(t_37)
    context.exported_vars.add('checks_part')
    context.vars['checks_part'] = l_0_checks_part = Macro(environment, macro, 'checks_part', ('s',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_questions, l_1_sources):
        t_38 = []
        l_1_msg = resolve('msg')
        l_1_lang = resolve('lang')
        l_1_rows = missing
        if l_1_questions is missing:
            l_1_questions = undefined("parameter 'questions' was not provided", name='questions')
        if l_1_sources is missing:
            l_1_sources = []
        pass
        t_39 = []
        pass
        t_39.extend((
            '\\toprule\n',
            str(t_5(environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), 'w_col_question', environment.call(context, (undefined(name='lead') if l_0_lead is missing else l_0_lead))))),
            ' & ',
            str(t_5(environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), 'w_col_quantity', environment.call(context, (undefined(name='lead') if l_0_lead is missing else l_0_lead))))),
            ' & ',
            str(t_5(environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), 'w_col_answer', environment.call(context, (undefined(name='lead') if l_0_lead is missing else l_0_lead))))),
            ' \\\\\n\\midrule\n',
        ))
        for l_3_q in t_3(l_1_questions):
            l_3_aside = resolve('aside')
            l_3_pick = resolve('pick')
            _loop_vars = {}
            pass
            t_39.extend((
                str(t_5(environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), 'w_question_n', environment.call(context, (undefined(name='lead') if l_0_lead is missing else l_0_lead), _loop_vars=_loop_vars), n=environment.getattr(l_3_q, 'n'), _loop_vars=_loop_vars))),
                ' & ',
            ))
            if environment.getattr(l_3_q, 'apart'):
                pass
                t_39.append(
                    str(t_5(environment.call(context, (undefined(name='aside') if l_3_aside is missing else l_3_aside), t_2(t_15(t_1(environment.call(context, (undefined(name='pick') if l_3_pick is missing else l_3_pick), environment.getattr(environment.getattr(environment.getattr(l_3_q, 's'), 'target'), 'name'), environment.call(context, (undefined(name='lead') if l_0_lead is missing else l_0_lead), _loop_vars=_loop_vars), _loop_vars=_loop_vars), 'safe')), 'safe'), t_2(t_12(t_1(environment.getattr(l_3_q, 'apart'), 'math')), 'math'), environment.call(context, (undefined(name='lead') if l_0_lead is missing else l_0_lead), _loop_vars=_loop_vars), _loop_vars=_loop_vars))),
                )
            else:
                pass
                t_39.append(
                    str(t_5(environment.call(context, (undefined(name='pick') if l_3_pick is missing else l_3_pick), environment.getattr(environment.getattr(environment.getattr(l_3_q, 's'), 'target'), 'name'), environment.call(context, (undefined(name='lead') if l_0_lead is missing else l_0_lead), _loop_vars=_loop_vars), _loop_vars=_loop_vars))),
                )
            t_39.append(
                ' & ',
            )
            if environment.getattr(environment.getattr(l_3_q, 's'), 'multiple_of'):
                pass
                t_39.append(
                    str(t_5(environment.call(context, (undefined(name='aside') if l_3_aside is missing else l_3_aside), t_2(t_12(t_1(environment.getattr(environment.getattr(environment.getattr(l_3_q, 's'), 'answer'), 'statement_latex'), 'math')), 'math'), environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), 'multiple_of', environment.call(context, (undefined(name='lead') if l_0_lead is missing else l_0_lead), _loop_vars=_loop_vars), n=environment.getattr(environment.getattr(l_3_q, 's'), 'multiple_of'), _loop_vars=_loop_vars), environment.call(context, (undefined(name='lead') if l_0_lead is missing else l_0_lead), _loop_vars=_loop_vars), _loop_vars=_loop_vars))),
                )
            else:
                pass
                t_39.append(
                    str(t_5(t_2(t_12(t_1(environment.getattr(environment.getattr(environment.getattr(l_3_q, 's'), 'answer'), 'statement_latex'), 'math')), 'math'))),
                )
            t_39.append(
                ' \\\\\n',
            )
        l_3_q = l_3_aside = l_3_pick = missing
        t_39.append(
            '\\bottomrule\n',
        )
        l_1_rows = (Markup if context.eval_ctx.autoescape else identity)(concat(t_39))
        t_38.extend((
            '\\long\\def\\slideanswers{\\relax\n{\\footnotesize\n\\setbox0=\\hbox{\\begin{tabular}{@{}lll@{}}\n',
            str(t_5((undefined(name='rows') if l_1_rows is missing else l_1_rows))),
            '\\end{tabular}}%\n\\ifdim\\wd0>\\linewidth\n\\begin{tabularx}{\\linewidth}{@{}l>{\\RR}Xl@{}}\n',
            str(t_5((undefined(name='rows') if l_1_rows is missing else l_1_rows))),
            '\\end{tabularx}%\n\\else\\leavevmode\\box0 \\fi\\par}}\n\\long\\def\\slidesources{',
        ))
        if l_1_sources:
            pass
            t_38.extend((
                '{\\footnotesize\\interlinepenalty=10000 \\parskip=0pt \\baselineskip=11pt\n\\textbf{',
                str(t_5(environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), 'w_sources', environment.call(context, (undefined(name='lead') if l_0_lead is missing else l_0_lead))))),
                '}',
            ))
            if ((undefined(name='lang') if l_1_lang is missing else l_1_lang) == 'both'):
                pass
                t_38.extend((
                    '\\quad\\secondlang{',
                    str(t_5(environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), 'w_sources', 'en'))),
                    '}',
                ))
            t_38.append(
                '\\par\\nopagebreak\n',
            )
            for l_2_item in t_3(l_1_sources):
                _loop_vars = {}
                pass
                t_38.extend((
                    '\\hangindent=2em\\hangafter=1 ',
                    str(t_5(l_2_item)),
                    '\\par\n',
                ))
            l_2_item = missing
            t_38.append(
                '}\n',
            )
        t_38.extend((
            '}\n\\slideplacesources{',
            str(t_5(environment.call(context, (undefined(name='heading') if l_0_heading is missing else l_0_heading), 'w_summary'))),
            '}{',
            str(t_5(environment.call(context, (undefined(name='subheading') if l_0_subheading is missing else l_0_subheading), 'w_summary'))),
            '}\n',
        ))
        return concat(t_38)
    context.exported_vars.add('summary_defs')
    context.vars['summary_defs'] = l_0_summary_defs = Macro(environment, macro, 'summary_defs', ('questions', 'sources'), False, False, False, context.eval_ctx.autoescape)
    yield '\n'
    def macro():
        t_40 = []
        pass
        t_40.extend((
            str(t_5(environment.call(context, (undefined(name='frame') if l_0_frame is missing else l_0_frame), environment.call(context, (undefined(name='heading') if l_0_heading is missing else l_0_heading), 'w_summary'), environment.call(context, (undefined(name='subheading') if l_0_subheading is missing else l_0_subheading), 'w_summary'), '\\slidesummary'))),
            '\n',
        ))
        return concat(t_40)
    context.exported_vars.add('summary_frame')
    context.vars['summary_frame'] = l_0_summary_frame = Macro(environment, macro, 'summary_frame', (), False, False, False, context.eval_ctx.autoescape)

blocks = {}
debug_info = '7=114&8=116&10=119&12=130&13=139&14=142&15=146&24=155&25=169&27=193&31=200&32=212&35=227&36=237&37=240&38=244&42=253&43=261&44=264&45=268&53=274&55=287&56=289&59=291&63=294&65=298&66=301&74=323&75=331&76=334&78=340&85=346&86=352&87=353&88=364&89=370&93=392&94=399&95=400&98=401&99=402&100=404&101=410&102=412&103=414&104=416&105=418&106=422&108=423&110=427&112=429&117=432&118=435&121=440&125=444&127=449&128=451&129=455&131=460&133=463&135=467&136=470&137=477&138=480&143=487&145=491&152=497&153=505&155=518&156=521&157=524&159=543&166=566&167=573&170=582&172=594&177=600&180=626&183=664&184=673&185=677&194=689&195=697&196=699&197=700&198=701&199=706&201=710&202=711&203=716&204=719&208=727&209=731&213=746&214=762&215=767&216=769&217=771&218=778&220=795&228=825&231=834&232=846&239=852&242=866&244=873&245=879&240=912&254=915&257=917&259=920&261=924&262=937&263=942&266=951&269=960&270=964'
