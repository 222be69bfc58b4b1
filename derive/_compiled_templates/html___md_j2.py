"""_md.j2 (html) compiled by Jinja 3.1.6; written by python -m derive._compiled_templates, do not edit."""
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '_md.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_h = l_0_p = l_0_eq = l_0_align = l_0_boxed = l_0_label = l_0_keep = l_0_lead = l_0_small = l_0_both = l_0_anchor_link = l_0_ul = l_0_ol = l_0_table = l_0_link = l_0_strong = l_0_code = l_0_rule = missing
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
        t_6 = environment.filters['replace']
    except KeyError:
        @internalcode
        def t_6(*unused):
            raise TemplateRuntimeError("No filter named 'replace' found.")
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
        t_7.append(
            '\n',
        )
        if l_1_anchor:
            pass
            t_7.extend((
                '<a id="',
                escape(t_4(l_1_anchor)),
                '"></a>\n\n',
            ))
        t_7.extend((
            escape(t_4(environment.call_binop(context, '*', '#', l_1_level))),
            ' ',
            escape(t_4(l_1_text)),
            '\n\n',
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
        if l_1_second:
            pass
            t_8.extend((
                '*',
                escape(t_4(l_1_text)),
                '*',
            ))
        else:
            pass
            t_8.append(
                escape(t_4(l_1_text)),
            )
        t_8.append(
            '\n\n',
        )
        return concat(t_8)
    context.exported_vars.add('p')
    context.vars['p'] = l_0_p = Macro(environment, macro, 'p', ('text', 'second'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_latex):
        t_9 = []
        if l_1_latex is missing:
            l_1_latex = undefined("parameter 'latex' was not provided", name='latex')
        pass
        t_9.extend((
            '\n$$\n',
            escape(t_4(l_1_latex)),
            '\n$$\n\n',
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
            '\n$$\n\\begin{aligned}\n',
        )
        l_2_loop = missing
        for l_2_r, l_2_loop in LoopContext(t_3(l_1_rows), undefined):
            _loop_vars = {}
            pass
            t_10.extend((
                escape(t_4(environment.getitem(l_2_r, 0))),
                ' &',
                escape(t_4(environment.getitem(l_2_r, 1))),
                ' ',
                escape(t_4(environment.getitem(l_2_r, 2))),
            ))
            if (not environment.getattr(l_2_loop, 'last')):
                pass
                t_10.append(
                    ' \\\\',
                )
            t_10.append(
                '\n',
            )
        l_2_loop = l_2_r = missing
        t_10.append(
            '\\end{aligned}\n$$\n\n',
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
            '\n$$\n\\boxed{',
            escape(t_4(l_1_latex)),
            '}\n$$\n\n',
        ))
        return concat(t_11)
    context.exported_vars.add('boxed')
    context.vars['boxed'] = l_0_boxed = Macro(environment, macro, 'boxed', ('latex',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_text):
        t_12 = []
        if l_1_text is missing:
            l_1_text = undefined("parameter 'text' was not provided", name='text')
        pass
        t_12.extend((
            '**',
            escape(t_4(l_1_text)),
            '**',
        ))
        return concat(t_12)
    context.exported_vars.add('label')
    context.vars['label'] = l_0_label = Macro(environment, macro, 'label', ('text',), False, False, False, context.eval_ctx.autoescape)
    def macro():
        t_13 = []
        pass
        return concat(t_13)
    context.exported_vars.add('keep')
    context.vars['keep'] = l_0_keep = Macro(environment, macro, 'keep', (), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_text, l_1_room):
        t_14 = []
        if l_1_text is missing:
            l_1_text = undefined("parameter 'text' was not provided", name='text')
        if l_1_room is missing:
            l_1_room = 5
        pass
        t_14.append(
            escape(t_4(environment.call(context, (undefined(name='p') if l_0_p is missing else l_0_p), environment.call(context, (undefined(name='label') if l_0_label is missing else l_0_label), l_1_text)))),
        )
        return concat(t_14)
    context.exported_vars.add('lead')
    context.vars['lead'] = l_0_lead = Macro(environment, macro, 'lead', ('text', 'room'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_text):
        t_15 = []
        if l_1_text is missing:
            l_1_text = undefined("parameter 'text' was not provided", name='text')
        pass
        t_15.append(
            escape(t_4(l_1_text)),
        )
        return concat(t_15)
    context.exported_vars.add('small')
    context.vars['small'] = l_0_small = Macro(environment, macro, 'small', ('text',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_first, l_1_second):
        t_16 = []
        if l_1_first is missing:
            l_1_first = undefined("parameter 'first' was not provided", name='first')
        if l_1_second is missing:
            l_1_second = undefined("parameter 'second' was not provided", name='second')
        pass
        t_16.extend((
            escape(t_4(l_1_first)),
            '<br>*',
            escape(t_4(l_1_second)),
            '*',
        ))
        return concat(t_16)
    context.exported_vars.add('both')
    context.vars['both'] = l_0_both = Macro(environment, macro, 'both', ('first', 'second'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_text, l_1_anchor):
        t_17 = []
        if l_1_text is missing:
            l_1_text = undefined("parameter 'text' was not provided", name='text')
        if l_1_anchor is missing:
            l_1_anchor = undefined("parameter 'anchor' was not provided", name='anchor')
        pass
        t_17.extend((
            '[',
            escape(t_4(l_1_text)),
            '](#',
            escape(t_4(l_1_anchor)),
            ')',
        ))
        return concat(t_17)
    context.exported_vars.add('anchor_link')
    context.vars['anchor_link'] = l_0_anchor_link = Macro(environment, macro, 'anchor_link', ('text', 'anchor'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_items):
        t_18 = []
        if l_1_items is missing:
            l_1_items = undefined("parameter 'items' was not provided", name='items')
        pass
        for l_2_item in t_3(l_1_items):
            _loop_vars = {}
            pass
            t_18.extend((
                '- ',
                escape(t_4(l_2_item)),
                '\n',
            ))
        l_2_item = missing
        t_18.append(
            '\n',
        )
        return concat(t_18)
    context.exported_vars.add('ul')
    context.vars['ul'] = l_0_ul = Macro(environment, macro, 'ul', ('items',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_items):
        t_19 = []
        if l_1_items is missing:
            l_1_items = undefined("parameter 'items' was not provided", name='items')
        pass
        l_2_loop = missing
        for l_2_item, l_2_loop in LoopContext(t_3(l_1_items), undefined):
            _loop_vars = {}
            pass
            t_19.extend((
                escape(t_4(environment.getattr(l_2_loop, 'index'))),
                '. ',
                escape(t_4(l_2_item)),
                '\n',
            ))
        l_2_loop = l_2_item = missing
        t_19.append(
            '\n',
        )
        return concat(t_19)
    context.exported_vars.add('ol')
    context.vars['ol'] = l_0_ol = Macro(environment, macro, 'ol', ('items',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_head, l_1_rows):
        t_20 = []
        if l_1_head is missing:
            l_1_head = undefined("parameter 'head' was not provided", name='head')
        if l_1_rows is missing:
            l_1_rows = undefined("parameter 'rows' was not provided", name='rows')
        pass
        t_20.extend((
            '\n| ',
            escape(t_4(t_2(t_5(context.eval_ctx, t_1(l_1_head, 'join'), ' | '), 'join'))),
            ' |\n|',
        ))
        for l_2__ in t_3(l_1_head):
            _loop_vars = {}
            pass
            t_20.append(
                '---|',
            )
        l_2__ = missing
        t_20.append(
            '\n',
        )
        for l_2_row in t_3(l_1_rows):
            _loop_vars = {}
            pass
            t_20.extend((
                '| ',
                escape(t_4(t_2(t_5(context.eval_ctx, t_1(l_2_row, 'join'), ' | '), 'join'))),
                ' |\n',
            ))
        l_2_row = missing
        t_20.append(
            '\n',
        )
        return concat(t_20)
    context.exported_vars.add('table')
    context.vars['table'] = l_0_table = Macro(environment, macro, 'table', ('head', 'rows'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_text, l_1_url):
        t_21 = []
        if l_1_text is missing:
            l_1_text = undefined("parameter 'text' was not provided", name='text')
        if l_1_url is missing:
            l_1_url = undefined("parameter 'url' was not provided", name='url')
        pass
        if (environment.call(context, environment.getattr(l_1_url, 'startswith'), 'https://') or environment.call(context, environment.getattr(l_1_url, 'startswith'), 'http://')):
            pass
            t_21.extend((
                '[',
                escape(t_4(l_1_text)),
                '](<',
                escape(t_4(t_2(t_6(context.eval_ctx, t_1(t_2(t_6(context.eval_ctx, t_1(t_2(t_6(context.eval_ctx, t_1(l_1_url, 'replace'), ' ', '%20'), 'replace'), 'replace'), '>', '%3E'), 'replace'), 'replace'), '<', '%3C'), 'replace'))),
                '>)',
            ))
        else:
            pass
            t_21.append(
                escape(t_4(l_1_text)),
            )
        return concat(t_21)
    context.exported_vars.add('link')
    context.vars['link'] = l_0_link = Macro(environment, macro, 'link', ('text', 'url'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_text):
        t_22 = []
        if l_1_text is missing:
            l_1_text = undefined("parameter 'text' was not provided", name='text')
        pass
        t_22.extend((
            '**',
            escape(t_4(l_1_text)),
            '**',
        ))
        return concat(t_22)
    context.exported_vars.add('strong')
    context.vars['strong'] = l_0_strong = Macro(environment, macro, 'strong', ('text',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_text):
        t_23 = []
        if l_1_text is missing:
            l_1_text = undefined("parameter 'text' was not provided", name='text')
        pass
        t_23.extend((
            '`',
            escape(t_4(t_2(t_6(context.eval_ctx, t_1(l_1_text, 'replace'), '`', "'"), 'replace'))),
            '`',
        ))
        return concat(t_23)
    context.exported_vars.add('code')
    context.vars['code'] = l_0_code = Macro(environment, macro, 'code', ('text',), False, False, False, context.eval_ctx.autoescape)
    def macro():
        t_24 = []
        pass
        t_24.append(
            '\n---\n\n',
        )
        return concat(t_24)
    context.exported_vars.add('rule')
    context.vars['rule'] = l_0_rule = Macro(environment, macro, 'rule', (), False, False, False, context.eval_ctx.autoescape)

blocks = {}
debug_info = '3=48&5=60&8=68&11=76&12=83&16=101&19=108&23=114&27=123&28=127&35=148&38=155&42=161&43=174&44=180&45=193&47=204&48=220&49=237&50=242&51=247&55=257&56=263&57=267&61=279&63=288&64=291&66=301&67=306&71=316&72=340&73=353&74=366'
