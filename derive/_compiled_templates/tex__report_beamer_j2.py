"""report.beamer.j2 (tex) compiled by Jinja 3.1.6; written by python -m derive._compiled_templates, do not edit."""
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'report.beamer.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_lang = resolve('lang')
    l_0_r = l_0_w = l_0_b = l_0_f = l_0_document = missing
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
        t_6 = environment.filters['cjk_setup']
    except KeyError:
        @internalcode
        def t_6(*unused):
            raise TemplateRuntimeError("No filter named 'cjk_setup' found.")
    try:
        t_7 = environment.filters['length']
    except KeyError:
        @internalcode
        def t_7(*unused):
            raise TemplateRuntimeError("No filter named 'length' found.")
    pass
    l_0_r = context.vars['r'] = environment.get_template('_report.j2', 'report.beamer.j2').make_module(context.get_all(), True, {'b': l_0_b, 'document': l_0_document, 'f': l_0_f, 'r': l_0_r, 'w': l_0_w})
    context.exported_vars.discard('r')
    l_0_w = context.vars['w'] = environment.get_template('_solution.j2', 'report.beamer.j2').make_module(context.get_all(), True, {'b': l_0_b, 'document': l_0_document, 'f': l_0_f, 'r': l_0_r, 'w': l_0_w})
    context.exported_vars.discard('w')
    l_0_b = context.vars['b'] = environment.get_template('_beamer.j2', 'report.beamer.j2').make_module(context.get_all(), True, {'b': l_0_b, 'document': l_0_document, 'f': l_0_f, 'r': l_0_r, 'w': l_0_w})
    context.exported_vars.discard('b')
    l_0_f = context.vars['f'] = environment.get_template('_tex.j2', 'report.beamer.j2')._get_default_module(context)
    context.exported_vars.discard('f')
    l_1_problem = resolve('problem')
    l_1_citations = resolve('citations')
    l_1_questions = resolve('questions')
    l_1_sources = missing
    t_8 = []
    pass
    t_8.extend((
        str(t_5(environment.call(context, environment.getattr((undefined(name='b') if l_0_b is missing else l_0_b), 'titles'), environment.getattr((undefined(name='problem') if l_1_problem is missing else l_1_problem), 'title')))),
        '\n\\begin{document}',
    ))
    l_1_sources = []
    if (t_2(t_7(t_1((undefined(name='citations') if l_1_citations is missing else l_1_citations), 'length')), 'length') > 1):
        pass
        for l_2_c in t_3((undefined(name='citations') if l_1_citations is missing else l_1_citations)):
            _loop_vars = {}
            pass
            t_8.append(
                str(t_5(('' if environment.call(context, environment.getattr((undefined(name='sources') if l_1_sources is missing else l_1_sources), 'append'), t_4(str_join(('\\makebox[2em][l]{[', t_5(environment.getattr(l_2_c, 'number')), ']}', t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'link'), environment.call(context, environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'esc'), environment.call(context, environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'ref_title'), l_2_c, _loop_vars=_loop_vars), _loop_vars=_loop_vars), environment.getattr(l_2_c, 'url'), _loop_vars=_loop_vars)), ))), _loop_vars=_loop_vars) else ''))),
            )
        l_2_c = missing
    t_8.extend((
        str(t_5(environment.call(context, environment.getattr((undefined(name='b') if l_0_b is missing else l_0_b), 'summary_defs'), (undefined(name='questions') if l_1_questions is missing else l_1_questions), (undefined(name='sources') if l_1_sources is missing else l_1_sources)))),
        '\n\\begin{frame}\n\\ifslidesourcesfirst\\slidetitlebox\\else\\titlepage\\fi\n{\\footnotesize ',
        str(t_5(environment.call(context, environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'source_line')))),
        '}\n\\ifslidesourcesfirst\\medskip\\slidesources\\fi\n\\end{frame}\\long\\def\\slidestatement{',
        str(t_5(environment.call(context, environment.getattr((undefined(name='b') if l_0_b is missing else l_0_b), 'both_lines'), environment.getattr((undefined(name='problem') if l_1_problem is missing else l_1_problem), 'statement')))),
        '}\n\\long\\def\\slideitems{ {\\footnotesize\n\\begin{enumerate}\\setlength{\\itemsep}{0pt}\n',
    ))
    for l_2_q in t_3((undefined(name='questions') if l_1_questions is missing else l_1_questions)):
        l_2_pick = resolve('pick')
        _loop_vars = {}
        pass
        t_8.extend((
            '  \\item ',
            str(t_5((environment.call(context, (undefined(name='pick') if l_2_pick is missing else l_2_pick), environment.getattr(l_2_q, 'ask'), environment.call(context, environment.getattr((undefined(name='b') if l_0_b is missing else l_0_b), 'lead'), _loop_vars=_loop_vars), _loop_vars=_loop_vars) if environment.getattr(l_2_q, 'ask') else environment.call(context, (undefined(name='pick') if l_2_pick is missing else l_2_pick), environment.getattr(environment.getattr(environment.getattr(l_2_q, 's'), 'target'), 'name'), environment.call(context, environment.getattr((undefined(name='b') if l_0_b is missing else l_0_b), 'lead'), _loop_vars=_loop_vars), _loop_vars=_loop_vars)))),
            '\n',
        ))
    l_2_q = l_2_pick = missing
    t_8.extend((
        '\\end{enumerate}\\par} }\n\\slideplaceoutline{',
        str(t_5(environment.call(context, environment.getattr((undefined(name='b') if l_0_b is missing else l_0_b), 'heading'), 'w_outline'))),
        '}{',
        str(t_5(environment.call(context, environment.getattr((undefined(name='b') if l_0_b is missing else l_0_b), 'subheading'), 'w_outline'))),
        '}\n\\ifslideoutlinealone\n',
        str(t_5(environment.call(context, environment.getattr((undefined(name='b') if l_0_b is missing else l_0_b), 'frame'), environment.call(context, environment.getattr((undefined(name='b') if l_0_b is missing else l_0_b), 'heading'), 'w_problem'), environment.call(context, environment.getattr((undefined(name='b') if l_0_b is missing else l_0_b), 'subheading'), 'w_problem'), '\\slidestatement'))),
        '\n',
        str(t_5(environment.call(context, environment.getattr((undefined(name='b') if l_0_b is missing else l_0_b), 'frame'), environment.call(context, environment.getattr((undefined(name='b') if l_0_b is missing else l_0_b), 'heading'), 'w_outline'), environment.call(context, environment.getattr((undefined(name='b') if l_0_b is missing else l_0_b), 'subheading'), 'w_outline'), '\\slideitems'))),
        '\n\\else\n',
        str(t_5(environment.call(context, environment.getattr((undefined(name='b') if l_0_b is missing else l_0_b), 'frame'), environment.call(context, environment.getattr((undefined(name='b') if l_0_b is missing else l_0_b), 'heading'), 'w_outline'), environment.call(context, environment.getattr((undefined(name='b') if l_0_b is missing else l_0_b), 'subheading'), 'w_outline'), '\\slidestatement\n\\medskip\n\\slideitems'))),
        '\n\\fi\n',
    ))
    for l_2_q in t_3((undefined(name='questions') if l_1_questions is missing else l_1_questions)):
        l_2_msg = resolve('msg')
        l_2_qtitle = missing
        _loop_vars = {}
        pass
        l_2_qtitle = {'en': environment.call(context, (undefined(name='msg') if l_2_msg is missing else l_2_msg), 'w_question_n', 'en', n=environment.getattr(l_2_q, 'n'), _loop_vars=_loop_vars), 'zh': environment.call(context, (undefined(name='msg') if l_2_msg is missing else l_2_msg), 'w_question_n', 'zh', n=environment.getattr(l_2_q, 'n'), _loop_vars=_loop_vars)}
        _loop_vars['qtitle'] = l_2_qtitle
        t_8.extend((
            str(t_5(environment.call(context, environment.getattr((undefined(name='b') if l_0_b is missing else l_0_b), 'solution_frames'), environment.getattr(l_2_q, 's'), ask=environment.getattr(l_2_q, 'ask'), note=environment.getattr(l_2_q, 'note'), qtitle=(undefined(name='qtitle') if l_2_qtitle is missing else l_2_qtitle), _loop_vars=_loop_vars))),
            '\n',
        ))
    l_2_q = l_2_msg = l_2_qtitle = missing
    t_8.extend((
        str(t_5(environment.call(context, environment.getattr((undefined(name='b') if l_0_b is missing else l_0_b), 'summary_frame')))),
        '\n\\end{document}\n',
    ))
    l_0_document = (Markup if context.eval_ctx.autoescape else identity)(concat(t_8))
    context.vars['document'] = l_0_document
    context.exported_vars.add('document')
    l_1_problem = l_1_sources = l_1_citations = l_1_questions = missing
    yield str(t_5(environment.call(context, environment.getattr((undefined(name='f') if l_0_f is missing else l_0_f), 'preamble'), 'beamer', (undefined(name='lang') if l_0_lang is missing else l_0_lang), cjk=t_2(t_6(t_1((undefined(name='document') if l_0_document is missing else l_0_document), 'cjk_setup'), (undefined(name='lang') if l_0_lang is missing else l_0_lang)), 'cjk_setup'))))
    yield '\n'
    yield str(t_5((undefined(name='document') if l_0_document is missing else l_0_document)))
    yield '\n'

blocks = {}
debug_info = '5=55&6=57&7=59&8=61&11=70&14=73&15=74&16=76&18=84&21=86&26=88&29=91&30=97&33=103&35=107&36=109&38=111&40=114&41=119&42=122&44=127&10=130&47=134&48=136'
