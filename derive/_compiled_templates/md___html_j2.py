"""_html.j2 (md, tex) compiled by Jinja 3.1.6; written by python -m derive._compiled_templates, do not edit."""
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '_html.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_h = l_0_p = l_0_eq = l_0_align = l_0_boxed = l_0_contents = l_0_label = l_0_keep = l_0_lead = l_0_small = l_0_both = l_0_anchor_link = l_0_ul = l_0_ol = l_0_table = l_0_link = l_0_strong = l_0_code = l_0_rule = l_0_page_start = l_0_page_end = missing
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
        t_6 = environment.filters['math']
    except KeyError:
        @internalcode
        def t_6(*unused):
            raise TemplateRuntimeError("No filter named 'math' found.")
    pass
    def macro(l_1_level, l_1_text, l_1_anchor):
        t_7 = []
        if l_1_level is missing:
            l_1_level = undefined("parameter 'level' was not provided", name='level')
        if l_1_text is missing:
            l_1_text = undefined("parameter 'text' was not provided", name='text')
        if l_1_anchor is missing:
            l_1_anchor = ''
        pass
        t_7.extend((
            '<h',
            str(t_5(l_1_level)),
        ))
        if l_1_anchor:
            pass
            t_7.extend((
                ' id="',
                str(t_5(l_1_anchor)),
                '"',
            ))
        t_7.extend((
            '>',
            str(t_5(l_1_text)),
            '</h',
            str(t_5(l_1_level)),
            '>\n',
        ))
        return concat(t_7)
    context.exported_vars.add('h')
    context.vars['h'] = l_0_h = Macro(environment, macro, 'h', ('level', 'text', 'anchor'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_text, l_1_second):
        t_8 = []
        if l_1_text is missing:
            l_1_text = undefined("parameter 'text' was not provided", name='text')
        if l_1_second is missing:
            l_1_second = False
        pass
        t_8.append(
            '<p',
        )
        if l_1_second:
            pass
            t_8.append(
                ' class="second" lang="en"',
            )
        t_8.extend((
            '>',
            str(t_5(l_1_text)),
            '</p>\n',
        ))
        return concat(t_8)
    context.exported_vars.add('p')
    context.vars['p'] = l_0_p = Macro(environment, macro, 'p', ('text', 'second'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_latex):
        t_9 = []
        if l_1_latex is missing:
            l_1_latex = undefined("parameter 'latex' was not provided", name='latex')
        pass
        t_9.extend((
            '<div class="eq">',
            str(t_5(t_2(t_6(t_1(l_1_latex, 'math'), True), 'math'))),
            '</div>\n',
        ))
        return concat(t_9)
    context.exported_vars.add('eq')
    context.vars['eq'] = l_0_eq = Macro(environment, macro, 'eq', ('latex',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_rows):
        t_10 = []
        if l_1_rows is missing:
            l_1_rows = undefined("parameter 'rows' was not provided", name='rows')
        pass
        t_10.append(
            '<div class="eq"><table class="derivation">\n',
        )
        for l_2_r in t_3(l_1_rows):
            _loop_vars = {}
            pass
            t_10.append(
                '<tr><td class="l">',
            )
            if environment.getitem(l_2_r, 0):
                pass
                t_10.append(
                    str(t_5(t_2(t_6(t_1(environment.getitem(l_2_r, 0), 'math'), True), 'math'))),
                )
            t_10.extend((
                '</td><td class="r">',
                str(t_5(t_2(t_6(t_1(t_4(str_join((t_5(environment.getitem(l_2_r, 1)), ' ', t_5(environment.getitem(l_2_r, 2)), ))), 'math'), True), 'math'))),
                '</td></tr>\n',
            ))
        l_2_r = missing
        t_10.append(
            '</table></div>\n',
        )
        return concat(t_10)
    context.exported_vars.add('align')
    context.vars['align'] = l_0_align = Macro(environment, macro, 'align', ('rows',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_latex):
        t_11 = []
        if l_1_latex is missing:
            l_1_latex = undefined("parameter 'latex' was not provided", name='latex')
        pass
        t_11.extend((
            '<div class="eq answer"><span class="box">',
            str(t_5(t_2(t_6(t_1(l_1_latex, 'math'), True), 'math'))),
            '</span></div>\n',
        ))
        return concat(t_11)
    context.exported_vars.add('boxed')
    context.vars['boxed'] = l_0_boxed = Macro(environment, macro, 'boxed', ('latex',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_title, l_1_items, l_1_label):
        t_12 = []
        if l_1_title is missing:
            l_1_title = undefined("parameter 'title' was not provided", name='title')
        if l_1_items is missing:
            l_1_items = undefined("parameter 'items' was not provided", name='items')
        if l_1_label is missing:
            l_1_label = undefined("parameter 'label' was not provided", name='label')
        pass
        t_12.extend((
            '<nav class="toc" aria-label="',
            str(t_5(l_1_label)),
            '">\n<p class="toc-title"><strong>',
            str(t_5(l_1_title)),
            '</strong></p>\n',
            str(t_5(environment.call(context, (undefined(name='ol') if l_0_ol is missing else l_0_ol), l_1_items))),
            '</nav>\n',
        ))
        return concat(t_12)
    context.exported_vars.add('contents')
    context.vars['contents'] = l_0_contents = Macro(environment, macro, 'contents', ('title', 'items', 'label'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_text):
        t_13 = []
        if l_1_text is missing:
            l_1_text = undefined("parameter 'text' was not provided", name='text')
        pass
        t_13.extend((
            '<strong>',
            str(t_5(l_1_text)),
            '</strong>',
        ))
        return concat(t_13)
    context.exported_vars.add('label')
    context.vars['label'] = l_0_label = Macro(environment, macro, 'label', ('text',), False, False, False, context.eval_ctx.autoescape)
    def macro():
        t_14 = []
        pass
        return concat(t_14)
    context.exported_vars.add('keep')
    context.vars['keep'] = l_0_keep = Macro(environment, macro, 'keep', (), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_text, l_1_room):
        t_15 = []
        if l_1_text is missing:
            l_1_text = undefined("parameter 'text' was not provided", name='text')
        if l_1_room is missing:
            l_1_room = 5
        pass
        t_15.append(
            str(t_5(environment.call(context, (undefined(name='p') if l_0_p is missing else l_0_p), environment.call(context, (undefined(name='label') if l_0_label is missing else l_0_label), l_1_text)))),
        )
        return concat(t_15)
    context.exported_vars.add('lead')
    context.vars['lead'] = l_0_lead = Macro(environment, macro, 'lead', ('text', 'room'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_text):
        t_16 = []
        if l_1_text is missing:
            l_1_text = undefined("parameter 'text' was not provided", name='text')
        pass
        t_16.extend((
            '<small>',
            str(t_5(l_1_text)),
            '</small>',
        ))
        return concat(t_16)
    context.exported_vars.add('small')
    context.vars['small'] = l_0_small = Macro(environment, macro, 'small', ('text',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_first, l_1_second):
        t_17 = []
        if l_1_first is missing:
            l_1_first = undefined("parameter 'first' was not provided", name='first')
        if l_1_second is missing:
            l_1_second = undefined("parameter 'second' was not provided", name='second')
        pass
        t_17.extend((
            str(t_5(l_1_first)),
            '<br><span class="second" lang="en">',
            str(t_5(l_1_second)),
            '</span>',
        ))
        return concat(t_17)
    context.exported_vars.add('both')
    context.vars['both'] = l_0_both = Macro(environment, macro, 'both', ('first', 'second'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_text, l_1_anchor):
        t_18 = []
        if l_1_text is missing:
            l_1_text = undefined("parameter 'text' was not provided", name='text')
        if l_1_anchor is missing:
            l_1_anchor = undefined("parameter 'anchor' was not provided", name='anchor')
        pass
        t_18.extend((
            '<a href="#',
            str(t_5(l_1_anchor)),
            '">',
            str(t_5(l_1_text)),
            '</a>',
        ))
        return concat(t_18)
    context.exported_vars.add('anchor_link')
    context.vars['anchor_link'] = l_0_anchor_link = Macro(environment, macro, 'anchor_link', ('text', 'anchor'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_items):
        t_19 = []
        if l_1_items is missing:
            l_1_items = undefined("parameter 'items' was not provided", name='items')
        pass
        t_19.append(
            '<ul>\n',
        )
        for l_2_item in t_3(l_1_items):
            _loop_vars = {}
            pass
            t_19.extend((
                '<li>',
                str(t_5(l_2_item)),
                '</li>\n',
            ))
        l_2_item = missing
        t_19.append(
            '</ul>\n',
        )
        return concat(t_19)
    context.exported_vars.add('ul')
    context.vars['ul'] = l_0_ul = Macro(environment, macro, 'ul', ('items',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_items):
        t_20 = []
        if l_1_items is missing:
            l_1_items = undefined("parameter 'items' was not provided", name='items')
        pass
        t_20.append(
            '<ol>\n',
        )
        for l_2_item in t_3(l_1_items):
            _loop_vars = {}
            pass
            t_20.extend((
                '<li>',
                str(t_5(l_2_item)),
                '</li>\n',
            ))
        l_2_item = missing
        t_20.append(
            '</ol>\n',
        )
        return concat(t_20)
    context.exported_vars.add('ol')
    context.vars['ol'] = l_0_ol = Macro(environment, macro, 'ol', ('items',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_head, l_1_rows):
        t_21 = []
        if l_1_head is missing:
            l_1_head = undefined("parameter 'head' was not provided", name='head')
        if l_1_rows is missing:
            l_1_rows = undefined("parameter 'rows' was not provided", name='rows')
        pass
        t_21.append(
            '<div class="table"><table>\n<thead><tr>',
        )
        for l_2_cell in t_3(l_1_head):
            _loop_vars = {}
            pass
            t_21.extend((
                '<th>',
                str(t_5(l_2_cell)),
                '</th>',
            ))
        l_2_cell = missing
        t_21.append(
            '</tr></thead>\n<tbody>\n',
        )
        for l_2_row in t_3(l_1_rows):
            _loop_vars = {}
            pass
            t_21.append(
                '<tr>',
            )
            for l_3_cell in t_3(l_2_row):
                _loop_vars = {}
                pass
                t_21.extend((
                    '<td>',
                    str(t_5(l_3_cell)),
                    '</td>',
                ))
            l_3_cell = missing
            t_21.append(
                '</tr>\n',
            )
        l_2_row = missing
        t_21.append(
            '</tbody></table></div>\n',
        )
        return concat(t_21)
    context.exported_vars.add('table')
    context.vars['table'] = l_0_table = Macro(environment, macro, 'table', ('head', 'rows'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_text, l_1_url):
        t_22 = []
        if l_1_text is missing:
            l_1_text = undefined("parameter 'text' was not provided", name='text')
        if l_1_url is missing:
            l_1_url = undefined("parameter 'url' was not provided", name='url')
        pass
        if (environment.call(context, environment.getattr(l_1_url, 'startswith'), 'https://') or environment.call(context, environment.getattr(l_1_url, 'startswith'), 'http://')):
            pass
            t_22.extend((
                '<a href="',
                str(t_5(l_1_url)),
                '">',
                str(t_5(l_1_text)),
                '</a>',
            ))
        else:
            pass
            t_22.append(
                str(t_5(l_1_text)),
            )
        return concat(t_22)
    context.exported_vars.add('link')
    context.vars['link'] = l_0_link = Macro(environment, macro, 'link', ('text', 'url'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_text):
        t_23 = []
        if l_1_text is missing:
            l_1_text = undefined("parameter 'text' was not provided", name='text')
        pass
        t_23.extend((
            '<strong>',
            str(t_5(l_1_text)),
            '</strong>',
        ))
        return concat(t_23)
    context.exported_vars.add('strong')
    context.vars['strong'] = l_0_strong = Macro(environment, macro, 'strong', ('text',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_text):
        t_24 = []
        if l_1_text is missing:
            l_1_text = undefined("parameter 'text' was not provided", name='text')
        pass
        t_24.extend((
            '<code>',
            str(t_5(l_1_text)),
            '</code>',
        ))
        return concat(t_24)
    context.exported_vars.add('code')
    context.vars['code'] = l_0_code = Macro(environment, macro, 'code', ('text',), False, False, False, context.eval_ctx.autoescape)
    def macro():
        t_25 = []
        pass
        t_25.append(
            '<hr>\n',
        )
        return concat(t_25)
    context.exported_vars.add('rule')
    context.vars['rule'] = l_0_rule = Macro(environment, macro, 'rule', (), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_title, l_1_lang):
        t_26 = []
        if l_1_title is missing:
            l_1_title = undefined("parameter 'title' was not provided", name='title')
        if l_1_lang is missing:
            l_1_lang = undefined("parameter 'lang' was not provided", name='lang')
        pass
        t_26.extend((
            '<!DOCTYPE html>\n<html lang="',
            str(t_5(('en' if (l_1_lang == 'en') else 'zh-Hans'))),
            '">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n<meta name="generator" content="derive">\n<title>',
            str(t_5(l_1_title)),
            '</title>\n<style>\n:root { --ink: #1f2328; --muted: #59636e; --rule: #d1d9e0; --panel: #f6f8fa; --accent: #0b5cad; --ok: #1a7f37; }\nhtml { -webkit-text-size-adjust: 100%; }\nbody { margin: 0; color: var(--ink); background: #fff; line-height: 1.65;\n  font-family: "Noto Sans CJK SC", "Source Han Sans SC", "PingFang SC", "Hiragino Sans GB", "Microsoft YaHei",\n    "Noto Sans", "Segoe UI", "Helvetica Neue", Arial, sans-serif; }\n/* English text in Latin fonts first: a CJK font set English quotes full width (section  “Worked Problems”) */\nbody:lang(en), .second:lang(en) { font-family: "Noto Sans", "Segoe UI", "Helvetica Neue", Arial, "Liberation Sans",\n    "DejaVu Sans", "Noto Sans CJK SC",\n    sans-serif; }\nmain { max-width: 54rem; margin: 0 auto; padding: 2rem 1.25rem 4rem; }\nh1 { font-size: 1.9rem; line-height: 1.3; margin: 0 0 .4rem; }\nh2 { font-size: 1.45rem; margin: 2.4rem 0 .6rem; padding-bottom: .25rem; border-bottom: 1px solid var(--rule); }\nh3 { font-size: 1.15rem; margin: 1.8rem 0 .5rem; }\nh4 { font-size: 1rem; margin: 1.5rem 0 .4rem; color: var(--accent); }\np { margin: .45rem 0; }\np.second { color: var(--muted); font-style: italic; margin-top: -.2rem; }\nspan.second { color: var(--muted); font-style: italic; font-weight: normal; font-size: .8em; }\n.eq { overflow-x: auto; overflow-y: hidden; padding: .35rem 0; }\nmath { font-family: "Latin Modern Math", "STIX Two Math", "Cambria Math", "Noto Sans Math", math; font-size: 1.08em; }\nmath[display="block"] { margin: .15rem 0; }\n.table { overflow-x: auto; }\ntable { border-collapse: collapse; width: 100%; font-size: .92rem; margin: .6rem 0 1rem; }\nth, td { text-align: left; vertical-align: top; padding: .35rem .55rem; border-bottom: 1px solid var(--rule); }\nth { background: var(--panel); font-weight: 600; }\nul, ol { padding-left: 1.4rem; }\nli { margin: .2rem 0; }\ncode { font-family: "Noto Sans Mono CJK SC", "SFMono-Regular", Consolas, "Liberation Mono", monospace; font-size: .88em;\n  background: var(--panel); padding: .05rem .3rem; border-radius: 4px; }\na { color: var(--accent); }\n.meta { color: var(--muted); font-size: .92rem; }\nsection.question { margin-top: 2rem; }\ntable.derivation { width: auto; border: 0; margin: .2rem 0; font-size: inherit; }\ntable.derivation td { border: 0; padding: .1rem .2rem; vertical-align: middle; }\ntable.derivation td.l { text-align: right; }\n/* a derivation\'s cells hold display math, which a browser centres in its cell: the rows\' = signs\n   then stood apart, the first row\'s in the middle of the widest row. Inline layout (still display\n   style) lets the cells\' own alignment put them in one column */\ntable.derivation math[display="block"] { display: inline-block; display: inline math; math-style: normal; margin: 0; }\n.answer { margin: .6rem 0; }\n.answer .box { display: inline-block; border: 1.5px solid var(--ink); border-radius: 3px; padding: .25rem .7rem; }\nnav.toc { background: var(--panel); border: 1px solid var(--rule); border-radius: 6px; padding: .5rem 1rem;\n  margin: 1rem 0; font-size: .92rem; }\nnav.toc ol { margin: .2rem 0; }\np.toc-title { margin: 0; }\nnav.toc ol { columns: 2; }\nh2, h3, h4 { break-after: avoid; }\nsmall { color: var(--muted); }\nhr { border: 0; border-top: 1px solid var(--rule); margin: 2rem 0; }\n@media print { main { max-width: none; } .eq, .table { overflow: visible; } }\n</style>\n</head>\n<body>\n<main>\n',
        ))
        return concat(t_26)
    context.exported_vars.add('page_start')
    context.vars['page_start'] = l_0_page_start = Macro(environment, macro, 'page_start', ('title', 'lang'), False, False, False, context.eval_ctx.autoescape)
    def macro():
        t_27 = []
        pass
        t_27.append(
            '</main>\n</body>\n</html>\n',
        )
        return concat(t_27)
    context.exported_vars.add('page_end')
    context.vars['page_end'] = l_0_page_end = Macro(environment, macro, 'page_end', (), False, False, False, context.eval_ctx.autoescape)

blocks = {}
debug_info = '2=48&4=78&6=101&8=114&9=122&10=128&15=145&17=158&18=171&19=173&21=179&22=192&23=198&24=211&26=224&27=240&28=257&29=265&30=270&34=280&35=288&36=293&40=303&41=313&43=325&44=331&48=350&49=374&50=387&51=400&55=409&56=418&61=420&117=426'
