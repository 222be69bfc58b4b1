"""_report.j2 (html) compiled by Jinja 3.1.6; written by python -m derive._compiled_templates, do not edit."""
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '_report.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_output = resolve('output')
    l_0_w = l_0_f = l_0_title_text = l_0_source_line_in = l_0_source_line = l_0_problem_part = l_0_assumption_list = l_0_answer_rows = l_0_contents_part = l_0_summary_part = l_0_questions_part = l_0_sources_part = missing
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
        t_6 = environment.filters['localize']
    except KeyError:
        @internalcode
        def t_6(*unused):
            raise TemplateRuntimeError("No filter named 'localize' found.")
    try:
        t_7 = environment.filters['math']
    except KeyError:
        @internalcode
        def t_7(*unused):
            raise TemplateRuntimeError("No filter named 'math' found.")
    try:
        t_8 = environment.filters['safe']
    except KeyError:
        @internalcode
        def t_8(*unused):
            raise TemplateRuntimeError("No filter named 'safe' found.")
    pass
    l_0_w = context.vars['w'] = environment.get_template('_solution.j2', '_report.j2').make_module(context.get_all(), True, {'answer_rows': l_0_answer_rows, 'assumption_list': l_0_assumption_list, 'contents_part': l_0_contents_part, 'f': l_0_f, 'problem_part': l_0_problem_part, 'questions_part': l_0_questions_part, 'source_line': l_0_source_line, 'source_line_in': l_0_source_line_in, 'sources_part': l_0_sources_part, 'summary_part': l_0_summary_part, 'title_text': l_0_title_text, 'w': l_0_w})
    context.exported_vars.discard('w')
    l_0_f = context.vars['f'] = environment.get_template(t_4(markup_join(('_', t_5((undefined(name='output') if l_0_output is missing else l_0_output)), '.j2', ))), '_report.j2')._get_default_module(context)
    context.exported_vars.discard('f')
    yield '\n'
    def macro(l_1_L):
        t_9 = []
        l_1_problem = resolve('problem')
        l_1_pick = resolve('pick')
        if l_1_L is missing:
            l_1_L = undefined("parameter 'L' was not provided", name='L')
        pass
        t_9.append(
            escape(t_5((environment.call(context, environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'name'), environment.getattr((undefined(name='problem') if l_1_problem is missing else l_1_problem), 'title')) if (l_1_L == 'both') else environment.call(context, (undefined(name='pick') if l_1_pick is missing else l_1_pick), environment.getattr((undefined(name='problem') if l_1_problem is missing else l_1_problem), 'title'), l_1_L)))),
        )
        return concat(t_9)
    context.exported_vars.add('title_text')
    context.vars['title_text'] = l_0_title_text = Macro(environment, macro, 'title_text', ('L',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_L, l_1_second):
        t_10 = []
        l_1_problem = resolve('problem')
        l_1_msg = resolve('msg')
        l_1_title = missing
        if l_1_L is missing:
            l_1_L = undefined("parameter 'L' was not provided", name='L')
        if l_1_second is missing:
            l_1_second = False
        pass
        l_1_title = environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'link'), environment.call(context, environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'esc'), t_2(t_6(t_1(environment.getattr(environment.getattr((undefined(name='problem') if l_1_problem is missing else l_1_problem), 'source'), 'title'), 'localize'), l_1_L), 'localize')), environment.getattr(environment.getattr((undefined(name='problem') if l_1_problem is missing else l_1_problem), 'source'), 'url'))
        if environment.getattr(environment.getattr((undefined(name='problem') if l_1_problem is missing else l_1_problem), 'source'), 'locator'):
            pass
            t_10.extend((
                escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'p'), environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), 'w_report_source_at', l_1_L, title=t_2(t_8(t_1((undefined(name='title') if l_1_title is missing else l_1_title), 'safe')), 'safe'), locator=t_2(t_8(t_1(environment.call(context, environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'esc'), t_2(t_6(t_1(environment.getattr(environment.getattr((undefined(name='problem') if l_1_problem is missing else l_1_problem), 'source'), 'locator'), 'localize'), l_1_L), 'localize')), 'safe')), 'safe')), l_1_second))),
                '\n',
            ))
        else:
            pass
            t_10.extend((
                escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'p'), environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), 'w_report_source_line', l_1_L, title=t_2(t_8(t_1((undefined(name='title') if l_1_title is missing else l_1_title), 'safe')), 'safe')), l_1_second))),
                '\n',
            ))
        return concat(t_10)
    context.exported_vars.add('source_line_in')
    context.vars['source_line_in'] = l_0_source_line_in = Macro(environment, macro, 'source_line_in', ('L', 'second'), False, False, False, context.eval_ctx.autoescape)
    yield '\n'
    def macro():
        t_11 = []
        l_1_problem = resolve('problem')
        l_1_lang = resolve('lang')
        pass
        if environment.getattr((undefined(name='problem') if l_1_problem is missing else l_1_problem), 'source'):
            pass
            if ((undefined(name='lang') if l_1_lang is missing else l_1_lang) == 'both'):
                pass
                t_11.extend((
                    escape(t_5(environment.call(context, (undefined(name='source_line_in') if l_0_source_line_in is missing else l_0_source_line_in), 'zh'))),
                    escape(t_5(environment.call(context, (undefined(name='source_line_in') if l_0_source_line_in is missing else l_0_source_line_in), 'en', True))),
                    '\n',
                ))
            else:
                pass
                t_11.extend((
                    escape(t_5(environment.call(context, (undefined(name='source_line_in') if l_0_source_line_in is missing else l_0_source_line_in), (undefined(name='lang') if l_1_lang is missing else l_1_lang)))),
                    '\n',
                ))
        return concat(t_11)
    context.exported_vars.add('source_line')
    context.vars['source_line'] = l_0_source_line = Macro(environment, macro, 'source_line', (), False, False, False, context.eval_ctx.autoescape)
    yield '\n'
    def macro(l_1_h):
        t_12 = []
        l_1_problem = resolve('problem')
        if l_1_h is missing:
            l_1_h = undefined("parameter 'h' was not provided", name='h')
        pass
        t_12.extend((
            escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'h'), l_1_h, environment.call(context, environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'word'), 'w_problem'), 'problem'))),
            '\n',
            escape(t_5(environment.call(context, environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'para'), environment.getattr((undefined(name='problem') if l_1_problem is missing else l_1_problem), 'statement')))),
            '\n',
            escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'h'), l_1_h, environment.call(context, environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'word'), 'w_problem_assumptions'), 'assumptions'))),
            '\n',
            escape(t_5(environment.call(context, (undefined(name='assumption_list') if l_0_assumption_list is missing else l_0_assumption_list)))),
            '\n',
        ))
        return concat(t_12)
    context.exported_vars.add('problem_part')
    context.vars['problem_part'] = l_0_problem_part = Macro(environment, macro, 'problem_part', ('h',), False, False, False, context.eval_ctx.autoescape)
    yield '\n'
    def macro(l_1_with_units):
        t_13 = []
        l_1_problem = resolve('problem')
        l_1_items = missing
        if l_1_with_units is missing:
            l_1_with_units = True
        pass
        l_1_items = []
        for l_2_a in t_3(environment.getattr((undefined(name='problem') if l_1_problem is missing else l_1_problem), 'assumptions')):
            _loop_vars = {}
            pass
            for l_3_L in t_3(environment.call(context, environment.getattr(environment.call(context, environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'langs'), _loop_vars=_loop_vars), 'split'), _loop_vars=_loop_vars)):
                l_3_pick = resolve('pick')
                _loop_vars = {}
                pass
                t_13.extend((
                    escape(t_5(('' if environment.call(context, environment.getattr((undefined(name='items') if l_1_items is missing else l_1_items), 'append'), environment.call(context, (undefined(name='pick') if l_3_pick is missing else l_3_pick), l_2_a, l_3_L, _loop_vars=_loop_vars), _loop_vars=_loop_vars) else ''))),
                    '\n',
                ))
            l_3_L = l_3_pick = missing
        l_2_a = missing
        if l_1_with_units:
            pass
            for l_2_L in t_3(environment.call(context, environment.getattr(environment.call(context, environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'langs')), 'split'))):
                l_2_msg = resolve('msg')
                l_2_units = resolve('units')
                _loop_vars = {}
                pass
                t_13.extend((
                    escape(t_5(('' if environment.call(context, environment.getattr((undefined(name='items') if l_1_items is missing else l_1_items), 'append'), environment.call(context, (undefined(name='msg') if l_2_msg is missing else l_2_msg), t_4(markup_join(('w_assume_units_', t_5((undefined(name='units') if l_2_units is missing else l_2_units)), ))), l_2_L, _loop_vars=_loop_vars), _loop_vars=_loop_vars) else ''))),
                    '\n',
                ))
            l_2_L = l_2_msg = l_2_units = missing
        t_13.extend((
            escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'ul'), (undefined(name='items') if l_1_items is missing else l_1_items)))),
            '\n',
        ))
        return concat(t_13)
    context.exported_vars.add('assumption_list')
    context.vars['assumption_list'] = l_0_assumption_list = Macro(environment, macro, 'assumption_list', ('with_units',), False, False, False, context.eval_ctx.autoescape)
    def macro():
        t_14 = []
        l_1_questions = resolve('questions')
        l_1_rows = missing
        pass
        l_1_rows = []
        for l_2_q in t_3((undefined(name='questions') if l_1_questions is missing else l_1_questions)):
            l_2_a = l_2_quantity = l_2_answer = missing
            _loop_vars = {}
            pass
            l_2_a = environment.getattr(environment.getattr(l_2_q, 's'), 'answer')
            _loop_vars['a'] = l_2_a
            l_3_values = resolve('values')
            l_3_lang = resolve('lang')
            l_3_aside = resolve('aside')
            l_3_pick = resolve('pick')
            t_15 = []
            pass
            if environment.getattr(l_2_q, 'apart'):
                pass
                l_3_values = t_2(t_7(t_1(environment.getattr(l_2_q, 'apart'), 'math')), 'math')
                if ((undefined(name='lang') if l_3_lang is missing else l_3_lang) == 'both'):
                    pass
                    t_15.append(
                        escape(t_5(environment.call(context, environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'two'), environment.call(context, (undefined(name='aside') if l_3_aside is missing else l_3_aside), t_2(t_8(t_1(environment.call(context, (undefined(name='pick') if l_3_pick is missing else l_3_pick), environment.getattr(environment.getattr(environment.getattr(l_2_q, 's'), 'target'), 'name'), 'zh'), 'safe')), 'safe'), (undefined(name='values') if l_3_values is missing else l_3_values), 'zh'), environment.call(context, (undefined(name='aside') if l_3_aside is missing else l_3_aside), t_2(t_8(t_1(environment.call(context, (undefined(name='pick') if l_3_pick is missing else l_3_pick), environment.getattr(environment.getattr(environment.getattr(l_2_q, 's'), 'target'), 'name'), 'en'), 'safe')), 'safe'), (undefined(name='values') if l_3_values is missing else l_3_values), 'en')))),
                    )
                else:
                    pass
                    t_15.append(
                        escape(t_5(environment.call(context, (undefined(name='aside') if l_3_aside is missing else l_3_aside), t_2(t_8(t_1(environment.call(context, (undefined(name='pick') if l_3_pick is missing else l_3_pick), environment.getattr(environment.getattr(environment.getattr(l_2_q, 's'), 'target'), 'name'), (undefined(name='lang') if l_3_lang is missing else l_3_lang)), 'safe')), 'safe'), (undefined(name='values') if l_3_values is missing else l_3_values), (undefined(name='lang') if l_3_lang is missing else l_3_lang)))),
                    )
            else:
                pass
                t_15.append(
                    escape(t_5(environment.call(context, environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'name'), environment.getattr(environment.getattr(environment.getattr(l_2_q, 's'), 'target'), 'name')))),
                )
            l_2_quantity = (Markup if context.eval_ctx.autoescape else identity)(concat(t_15))
            _loop_vars['quantity'] = l_2_quantity
            l_3_values = l_3_lang = l_3_aside = l_3_pick = missing
            l_3_lang = resolve('lang')
            l_3_msg = resolve('msg')
            l_3_aside = resolve('aside')
            l_3_shown = missing
            t_16 = []
            pass
            l_3_shown = t_2(t_7(t_1(environment.getattr((undefined(name='a') if l_2_a is missing else l_2_a), 'statement_latex'), 'math')), 'math')
            if environment.getattr(environment.getattr(l_2_q, 's'), 'multiple_of'):
                pass
                if ((undefined(name='lang') if l_3_lang is missing else l_3_lang) == 'both'):
                    pass
                    t_16.extend((
                        escape(t_5((undefined(name='shown') if l_3_shown is missing else l_3_shown))),
                        escape(t_5(environment.call(context, environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'two'), environment.call(context, (undefined(name='msg') if l_3_msg is missing else l_3_msg), 'w_answer_multiple', 'zh', multiple=environment.call(context, (undefined(name='msg') if l_3_msg is missing else l_3_msg), 'multiple_of', 'zh', n=environment.getattr(environment.getattr(l_2_q, 's'), 'multiple_of'))), environment.call(context, (undefined(name='msg') if l_3_msg is missing else l_3_msg), 'w_answer_multiple', 'en', multiple=environment.call(context, (undefined(name='msg') if l_3_msg is missing else l_3_msg), 'multiple_of', 'en', n=environment.getattr(environment.getattr(l_2_q, 's'), 'multiple_of')))))),
                    ))
                else:
                    pass
                    t_16.append(
                        escape(t_5(environment.call(context, (undefined(name='aside') if l_3_aside is missing else l_3_aside), (undefined(name='shown') if l_3_shown is missing else l_3_shown), environment.call(context, (undefined(name='msg') if l_3_msg is missing else l_3_msg), 'multiple_of', (undefined(name='lang') if l_3_lang is missing else l_3_lang), n=environment.getattr(environment.getattr(l_2_q, 's'), 'multiple_of')), (undefined(name='lang') if l_3_lang is missing else l_3_lang)))),
                    )
            else:
                pass
                t_16.append(
                    escape(t_5((undefined(name='shown') if l_3_shown is missing else l_3_shown))),
                )
            l_2_answer = (Markup if context.eval_ctx.autoescape else identity)(concat(t_16))
            _loop_vars['answer'] = l_2_answer
            l_3_shown = l_3_lang = l_3_msg = l_3_aside = missing
            t_14.extend((
                escape(t_5(('' if environment.call(context, environment.getattr((undefined(name='rows') if l_1_rows is missing else l_1_rows), 'append'), [environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'anchor_link'), environment.call(context, environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'word'), 'w_question_n', n=environment.getattr(l_2_q, 'n'), _loop_vars=_loop_vars), t_4(markup_join(('q', t_5(environment.getattr(l_2_q, 'n')), ))), _loop_vars=_loop_vars), (undefined(name='quantity') if l_2_quantity is missing else l_2_quantity), (undefined(name='answer') if l_2_answer is missing else l_2_answer)], _loop_vars=_loop_vars) else ''))),
                '\n',
            ))
        l_2_q = l_2_a = l_2_quantity = l_2_answer = missing
        t_14.extend((
            escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'table'), [environment.call(context, environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'word'), 'w_col_question'), environment.call(context, environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'word'), 'w_col_quantity'), environment.call(context, environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'word'), 'w_col_answer')], (undefined(name='rows') if l_1_rows is missing else l_1_rows)))),
            '\n',
        ))
        return concat(t_14)
    context.exported_vars.add('answer_rows')
    context.vars['answer_rows'] = l_0_answer_rows = Macro(environment, macro, 'answer_rows', (), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_h):
        t_17 = []
        l_1_questions = resolve('questions')
        l_1_msg = resolve('msg')
        l_1_lang = resolve('lang')
        l_1_items = missing
        if l_1_h is missing:
            l_1_h = undefined("parameter 'h' was not provided", name='h')
        pass
        l_1_items = [environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'anchor_link'), environment.call(context, environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'word'), 'w_summary'), 'summary'), environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'anchor_link'), environment.call(context, environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'word'), 'w_problem'), 'problem'), environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'anchor_link'), environment.call(context, environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'word'), 'w_problem_assumptions'), 'assumptions')]
        for l_2_q in t_3((undefined(name='questions') if l_1_questions is missing else l_1_questions)):
            l_2_body = l_2_entry = missing
            _loop_vars = {}
            pass
            l_2_body = {}
            _loop_vars['body'] = l_2_body
            for l_3_L in t_3(['en', 'zh']):
                l_3_aside = resolve('aside')
                l_3_pick = resolve('pick')
                _loop_vars = {}
                pass
                t_17.extend((
                    escape(t_5(('' if environment.call(context, environment.getattr((undefined(name='body') if l_2_body is missing else l_2_body), 'update'), {l_3_L: (environment.call(context, (undefined(name='aside') if l_3_aside is missing else l_3_aside), t_2(t_8(t_1(environment.call(context, (undefined(name='pick') if l_3_pick is missing else l_3_pick), environment.getattr(environment.getattr(environment.getattr(l_2_q, 's'), 'target'), 'name'), l_3_L, _loop_vars=_loop_vars), 'safe')), 'safe'), t_2(t_7(t_1(environment.getattr(l_2_q, 'apart'), 'math')), 'math'), l_3_L, _loop_vars=_loop_vars) if environment.getattr(l_2_q, 'apart') else t_2(t_8(t_1(environment.call(context, (undefined(name='pick') if l_3_pick is missing else l_3_pick), environment.getattr(environment.getattr(environment.getattr(l_2_q, 's'), 'target'), 'name'), l_3_L, _loop_vars=_loop_vars), 'safe')), 'safe'))}, _loop_vars=_loop_vars) else ''))),
                    '\n',
                ))
            l_3_L = l_3_aside = l_3_pick = missing
            l_2_entry = {'en': environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), 'w_colon', 'en', head=environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), 'w_question_n', 'en', n=environment.getattr(l_2_q, 'n'), _loop_vars=_loop_vars), body=environment.getattr((undefined(name='body') if l_2_body is missing else l_2_body), 'en'), _loop_vars=_loop_vars), 'zh': environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), 'w_colon', 'zh', head=environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), 'w_question_n', 'zh', n=environment.getattr(l_2_q, 'n'), _loop_vars=_loop_vars), body=environment.getattr((undefined(name='body') if l_2_body is missing else l_2_body), 'zh'), _loop_vars=_loop_vars)}
            _loop_vars['entry'] = l_2_entry
            t_17.extend((
                escape(t_5(('' if environment.call(context, environment.getattr((undefined(name='items') if l_1_items is missing else l_1_items), 'append'), environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'anchor_link'), (environment.call(context, environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'two'), environment.getattr((undefined(name='entry') if l_2_entry is missing else l_2_entry), 'zh'), environment.getattr((undefined(name='entry') if l_2_entry is missing else l_2_entry), 'en'), _loop_vars=_loop_vars) if ((undefined(name='lang') if l_1_lang is missing else l_1_lang) == 'both') else environment.getitem((undefined(name='entry') if l_2_entry is missing else l_2_entry), (undefined(name='lang') if l_1_lang is missing else l_1_lang))), t_4(markup_join(('q', t_5(environment.getattr(l_2_q, 'n')), ))), _loop_vars=_loop_vars), _loop_vars=_loop_vars) else ''))),
                '\n',
            ))
        l_2_q = l_2_body = l_2_entry = missing
        t_17.extend((
            escape(t_5(('' if environment.call(context, environment.getattr((undefined(name='items') if l_1_items is missing else l_1_items), 'append'), environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'anchor_link'), environment.call(context, environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'word'), 'w_sources'), 'sources')) else ''))),
            '\n',
            escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'contents'), environment.call(context, environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'word'), 'w_contents'), (undefined(name='items') if l_1_items is missing else l_1_items), environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), 'w_contents', ('zh' if ((undefined(name='lang') if l_1_lang is missing else l_1_lang) == 'both') else (undefined(name='lang') if l_1_lang is missing else l_1_lang)))))),
            '\n',
        ))
        return concat(t_17)
    context.exported_vars.add('contents_part')
    context.vars['contents_part'] = l_0_contents_part = Macro(environment, macro, 'contents_part', ('h',), False, False, False, context.eval_ctx.autoescape)
    yield '\n'
    def macro(l_1_h):
        t_18 = []
        if l_1_h is missing:
            l_1_h = undefined("parameter 'h' was not provided", name='h')
        pass
        t_18.extend((
            escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'h'), l_1_h, environment.call(context, environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'word'), 'w_summary'), 'summary'))),
            '\n',
            escape(t_5(environment.call(context, (undefined(name='answer_rows') if l_0_answer_rows is missing else l_0_answer_rows)))),
            '\n',
        ))
        return concat(t_18)
    context.exported_vars.add('summary_part')
    context.vars['summary_part'] = l_0_summary_part = Macro(environment, macro, 'summary_part', ('h',), False, False, False, context.eval_ctx.autoescape)
    yield '\n'
    def macro(l_1_h):
        t_19 = []
        l_1_questions = resolve('questions')
        if l_1_h is missing:
            l_1_h = undefined("parameter 'h' was not provided", name='h')
        pass
        for l_2_q in t_3((undefined(name='questions') if l_1_questions is missing else l_1_questions)):
            _loop_vars = {}
            pass
            t_19.extend((
                escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'h'), l_1_h, environment.call(context, environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'word'), 'w_question_n', n=environment.getattr(l_2_q, 'n'), _loop_vars=_loop_vars), t_4(markup_join(('q', t_5(environment.getattr(l_2_q, 'n')), ))), _loop_vars=_loop_vars))),
                '\n',
                escape(t_5(environment.call(context, environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'solution'), environment.getattr(l_2_q, 's'), environment.call_binop(context, '+', l_1_h, 1), ask=environment.getattr(l_2_q, 'ask'), note=environment.getattr(l_2_q, 'note'), with_sources=False, question_heading=False, _loop_vars=_loop_vars))),
                '\n',
            ))
        l_2_q = missing
        return concat(t_19)
    context.exported_vars.add('questions_part')
    context.vars['questions_part'] = l_0_questions_part = Macro(environment, macro, 'questions_part', ('h',), False, False, False, context.eval_ctx.autoescape)
    yield '\n'
    def macro(l_1_h):
        t_20 = []
        l_1_citations = resolve('citations')
        if l_1_h is missing:
            l_1_h = undefined("parameter 'h' was not provided", name='h')
        pass
        t_20.extend((
            escape(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'h'), l_1_h, environment.call(context, environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'word'), 'w_sources'), 'sources'))),
            '\n',
            escape(t_5(environment.call(context, environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'source_items'), (undefined(name='citations') if l_1_citations is missing else l_1_citations)))),
            '\n',
        ))
        return concat(t_20)
    context.exported_vars.add('sources_part')
    context.vars['sources_part'] = l_0_sources_part = Macro(environment, macro, 'sources_part', ('h',), False, False, False, context.eval_ctx.autoescape)

blocks = {}
debug_info = '4=61&5=63&7=66&11=79&12=89&13=90&14=93&16=99&20=106&21=111&22=113&23=116&25=123&30=130&31=137&32=139&33=141&34=143&37=150&38=157&39=158&40=161&41=166&44=171&45=173&46=179&49=184&53=190&54=195&55=196&56=200&58=208&59=211&60=219&61=224&58=226&63=235&64=247&63=254&65=258&67=263&71=269&72=278&74=279&75=283&76=285&77=291&79=295&81=298&83=303&84=305&87=312&88=318&89=320&92=327&93=333&94=337&95=339&99=347&100=354&101=356'
