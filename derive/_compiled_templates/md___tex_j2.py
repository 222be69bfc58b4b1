"""_tex.j2 (md, tex) compiled by Jinja 3.1.6; written by python -m derive._compiled_templates, do not edit."""
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '_tex.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_h = l_0_p = l_0_eq = l_0_align = l_0_boxed = l_0_label = l_0_keep = l_0_lead = l_0_small = l_0_both = l_0_anchor_link = l_0_ul = l_0_ol = l_0_table_columns = l_0_table = l_0_link = l_0_strong = l_0_code = l_0_rule = l_0_preamble = missing
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
        t_6 = environment.filters['length']
    except KeyError:
        @internalcode
        def t_6(*unused):
            raise TemplateRuntimeError("No filter named 'length' found.")
    try:
        t_7 = environment.filters['string']
    except KeyError:
        @internalcode
        def t_7(*unused):
            raise TemplateRuntimeError("No filter named 'string' found.")
    try:
        t_8 = environment.filters['striptex']
    except KeyError:
        @internalcode
        def t_8(*unused):
            raise TemplateRuntimeError("No filter named 'striptex' found.")
    try:
        t_9 = environment.filters['texcode']
    except KeyError:
        @internalcode
        def t_9(*unused):
            raise TemplateRuntimeError("No filter named 'texcode' found.")
    try:
        t_10 = environment.filters['texurl']
    except KeyError:
        @internalcode
        def t_10(*unused):
            raise TemplateRuntimeError("No filter named 'texurl' found.")
    pass
    def macro(l_1_level, l_1_text, l_1_anchor):
        t_11 = []
        l_1_mark = missing
        if l_1_level is missing:
            l_1_level = undefined("parameter 'level' was not provided", name='level')
        if l_1_text is missing:
            l_1_text = undefined("parameter 'text' was not provided", name='text')
        if l_1_anchor is missing:
            l_1_anchor = ''
        pass
        l_1_mark = t_2(t_8(t_1(environment.getitem(environment.call(context, environment.getattr(t_2(t_7(t_1(l_1_text, 'string')), 'string'), 'split'), '\\newline'), 0), 'striptex')), 'striptex')
        if l_1_anchor:
            pass
            t_11.append(
                '\\Needspace*{6\\baselineskip}\n',
            )
        if (l_1_level <= 1):
            pass
            t_11.extend((
                '\\section*{',
                str(t_4(l_1_text)),
                '}',
            ))
            if l_1_anchor:
                pass
                t_11.extend((
                    '\\hypertarget{',
                    str(t_4(l_1_anchor)),
                    '}{}\\pdfbookmark[1]{',
                    str(t_4((undefined(name='mark') if l_1_mark is missing else l_1_mark))),
                    '}{bm-',
                    str(t_4(l_1_anchor)),
                    '}',
                ))
        elif (l_1_level == 2):
            pass
            t_11.extend((
                '\\subsection*{',
                str(t_4(l_1_text)),
                '}',
            ))
            if l_1_anchor:
                pass
                t_11.extend((
                    '\\hypertarget{',
                    str(t_4(l_1_anchor)),
                    '}{}\\pdfbookmark[2]{',
                    str(t_4((undefined(name='mark') if l_1_mark is missing else l_1_mark))),
                    '}{bm-',
                    str(t_4(l_1_anchor)),
                    '}',
                ))
        elif (l_1_level == 3):
            pass
            t_11.extend((
                '\\subsubsection*{',
                str(t_4(l_1_text)),
                '}\n',
            ))
        else:
            pass
            t_11.extend((
                '\\paragraph*{',
                str(t_4(l_1_text)),
                '}\n',
            ))
        return concat(t_11)
    context.exported_vars.add('h')
    context.vars['h'] = l_0_h = Macro(environment, macro, 'h', ('level', 'text', 'anchor'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_text, l_1_second):
        t_12 = []
        if l_1_text is missing:
            l_1_text = undefined("parameter 'text' was not provided", name='text')
        if l_1_second is missing:
            l_1_second = False
        pass
        if l_1_second:
            pass
            t_12.extend((
                '\\secondlang{',
                str(t_4(l_1_text)),
                '}',
            ))
        else:
            pass
            t_12.append(
                str(t_4(l_1_text)),
            )
        t_12.append(
            '\\par\n\n',
        )
        return concat(t_12)
    context.exported_vars.add('p')
    context.vars['p'] = l_0_p = Macro(environment, macro, 'p', ('text', 'second'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_latex):
        t_13 = []
        if l_1_latex is missing:
            l_1_latex = undefined("parameter 'latex' was not provided", name='latex')
        pass
        t_13.extend((
            '\\deq{',
            str(t_4(l_1_latex)),
            '}\n',
        ))
        return concat(t_13)
    context.exported_vars.add('eq')
    context.vars['eq'] = l_0_eq = Macro(environment, macro, 'eq', ('latex',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_rows):
        t_14 = []
        if l_1_rows is missing:
            l_1_rows = undefined("parameter 'rows' was not provided", name='rows')
        pass
        t_14.append(
            '\\deq{\\begin{aligned}\n',
        )
        l_2_loop = missing
        for l_2_r, l_2_loop in LoopContext(t_3(l_1_rows), undefined):
            _loop_vars = {}
            pass
            t_14.extend((
                str(t_4(environment.getitem(l_2_r, 0))),
                ' &',
                str(t_4(environment.getitem(l_2_r, 1))),
                ' ',
                str(t_4(environment.getitem(l_2_r, 2))),
            ))
            if (not environment.getattr(l_2_loop, 'last')):
                pass
                t_14.append(
                    ' \\\\',
                )
            t_14.append(
                '\n',
            )
        l_2_loop = l_2_r = missing
        t_14.append(
            '\\end{aligned}}\n',
        )
        return concat(t_14)
    context.exported_vars.add('align')
    context.vars['align'] = l_0_align = Macro(environment, macro, 'align', ('rows',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_latex):
        t_15 = []
        if l_1_latex is missing:
            l_1_latex = undefined("parameter 'latex' was not provided", name='latex')
        pass
        t_15.extend((
            '\\deq{\\boxed{',
            str(t_4(l_1_latex)),
            '}}\n',
        ))
        return concat(t_15)
    context.exported_vars.add('boxed')
    context.vars['boxed'] = l_0_boxed = Macro(environment, macro, 'boxed', ('latex',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_text):
        t_16 = []
        if l_1_text is missing:
            l_1_text = undefined("parameter 'text' was not provided", name='text')
        pass
        t_16.extend((
            '\\textbf{',
            str(t_4(l_1_text)),
            '}',
        ))
        return concat(t_16)
    context.exported_vars.add('label')
    context.vars['label'] = l_0_label = Macro(environment, macro, 'label', ('text',), False, False, False, context.eval_ctx.autoescape)
    def macro():
        t_17 = []
        pass
        t_17.append(
            '\\nobreak\n',
        )
        return concat(t_17)
    context.exported_vars.add('keep')
    context.vars['keep'] = l_0_keep = Macro(environment, macro, 'keep', (), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_text, l_1_room):
        t_18 = []
        if l_1_text is missing:
            l_1_text = undefined("parameter 'text' was not provided", name='text')
        if l_1_room is missing:
            l_1_room = 5
        pass
        t_18.extend((
            '\\Needspace*{',
            str(t_4(l_1_room)),
            '\\baselineskip}\\textbf{',
            str(t_4(l_1_text)),
            '}\\par\\nobreak\\csname @afterheading\\endcsname\n\n',
        ))
        return concat(t_18)
    context.exported_vars.add('lead')
    context.vars['lead'] = l_0_lead = Macro(environment, macro, 'lead', ('text', 'room'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_text):
        t_19 = []
        if l_1_text is missing:
            l_1_text = undefined("parameter 'text' was not provided", name='text')
        pass
        t_19.extend((
            '{\\small ',
            str(t_4(l_1_text)),
            '}',
        ))
        return concat(t_19)
    context.exported_vars.add('small')
    context.vars['small'] = l_0_small = Macro(environment, macro, 'small', ('text',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_first, l_1_second):
        t_20 = []
        if l_1_first is missing:
            l_1_first = undefined("parameter 'first' was not provided", name='first')
        if l_1_second is missing:
            l_1_second = undefined("parameter 'second' was not provided", name='second')
        pass
        t_20.extend((
            str(t_4(l_1_first)),
            '\\newline{\\small\\mdseries\\secondlang{',
            str(t_4(l_1_second)),
            '}}',
        ))
        return concat(t_20)
    context.exported_vars.add('both')
    context.vars['both'] = l_0_both = Macro(environment, macro, 'both', ('first', 'second'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_text, l_1_anchor):
        t_21 = []
        if l_1_text is missing:
            l_1_text = undefined("parameter 'text' was not provided", name='text')
        if l_1_anchor is missing:
            l_1_anchor = undefined("parameter 'anchor' was not provided", name='anchor')
        pass
        t_21.extend((
            '\\hyperlink{',
            str(t_4(l_1_anchor)),
            '}{',
            str(t_4(l_1_text)),
            '}',
        ))
        return concat(t_21)
    context.exported_vars.add('anchor_link')
    context.vars['anchor_link'] = l_0_anchor_link = Macro(environment, macro, 'anchor_link', ('text', 'anchor'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_items):
        t_22 = []
        if l_1_items is missing:
            l_1_items = undefined("parameter 'items' was not provided", name='items')
        pass
        t_22.append(
            '\\begin{itemize}\n',
        )
        for l_2_item in t_3(l_1_items):
            _loop_vars = {}
            pass
            t_22.extend((
                '  \\item ',
                str(t_4(l_2_item)),
                '\n',
            ))
        l_2_item = missing
        t_22.append(
            '\\end{itemize}\n',
        )
        return concat(t_22)
    context.exported_vars.add('ul')
    context.vars['ul'] = l_0_ul = Macro(environment, macro, 'ul', ('items',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_items):
        t_23 = []
        if l_1_items is missing:
            l_1_items = undefined("parameter 'items' was not provided", name='items')
        pass
        t_23.append(
            '\\begin{enumerate}\n',
        )
        for l_2_item in t_3(l_1_items):
            _loop_vars = {}
            pass
            t_23.extend((
                '  \\item ',
                str(t_4(l_2_item)),
                '\n',
            ))
        l_2_item = missing
        t_23.append(
            '\\end{enumerate}\n',
        )
        return concat(t_23)
    context.exported_vars.add('ol')
    context.vars['ol'] = l_0_ol = Macro(environment, macro, 'ol', ('items',), False, False, False, context.eval_ctx.autoescape)
    l_0_table_columns = {3: 'p{0.2\\linewidth}>{\\RR}p{\\dimexpr0.5\\linewidth-4\\tabcolsep}>{\\RR}p{0.3\\linewidth}', 4: 'p{0.26\\linewidth}>{\\RR}p{0.12\\linewidth}>{\\RR}p{0.18\\linewidth}>{\\RR}p{\\dimexpr0.44\\linewidth-6\\tabcolsep}', 5: 'p{0.2\\linewidth}>{\\RR}p{0.1\\linewidth}>{\\RR}p{0.15\\linewidth}>{\\RR}p{0.2\\linewidth}>{\\RR}p{\\dimexpr0.35\\linewidth-8\\tabcolsep}'}
    context.vars['table_columns'] = l_0_table_columns
    context.exported_vars.add('table_columns')
    def macro(l_1_head, l_1_rows):
        t_24 = []
        if l_1_head is missing:
            l_1_head = undefined("parameter 'head' was not provided", name='head')
        if l_1_rows is missing:
            l_1_rows = undefined("parameter 'rows' was not provided", name='rows')
        pass
        t_24.extend((
            '{\\small\\setlength{\\LTleft}{0pt}\\setlength{\\LTpre}{0.3em}\\setlength{\\LTpost}{0.3em}\n\\begin{longtable}{@{}>{\\RR}',
            str(t_4(environment.getitem((undefined(name='table_columns') if l_0_table_columns is missing else l_0_table_columns), t_2(t_6(t_1(l_1_head, 'length')), 'length')))),
            '@{}}\n\\toprule\n',
            str(t_4(t_2(t_5(context.eval_ctx, t_1(l_1_head, 'join'), ' & '), 'join'))),
            ' \\\\\n\\midrule\n\\endhead\n',
        ))
        for l_2_row in t_3(l_1_rows):
            _loop_vars = {}
            pass
            t_24.extend((
                str(t_4(t_2(t_5(context.eval_ctx, t_1(l_2_row, 'join'), ' & '), 'join'))),
                ' \\\\\n',
            ))
        l_2_row = missing
        t_24.append(
            '\\bottomrule\n\\end{longtable}\\par}\n',
        )
        return concat(t_24)
    context.exported_vars.add('table')
    context.vars['table'] = l_0_table = Macro(environment, macro, 'table', ('head', 'rows'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_text, l_1_url):
        t_25 = []
        if l_1_text is missing:
            l_1_text = undefined("parameter 'text' was not provided", name='text')
        if l_1_url is missing:
            l_1_url = undefined("parameter 'url' was not provided", name='url')
        pass
        if (environment.call(context, environment.getattr(l_1_url, 'startswith'), 'https://') or environment.call(context, environment.getattr(l_1_url, 'startswith'), 'http://')):
            pass
            t_25.extend((
                '\\href{',
                str(t_4(t_2(t_10(t_1(l_1_url, 'texurl')), 'texurl'))),
                '}{',
                str(t_4(l_1_text)),
                '}',
            ))
        else:
            pass
            t_25.append(
                str(t_4(l_1_text)),
            )
        return concat(t_25)
    context.exported_vars.add('link')
    context.vars['link'] = l_0_link = Macro(environment, macro, 'link', ('text', 'url'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_text):
        t_26 = []
        if l_1_text is missing:
            l_1_text = undefined("parameter 'text' was not provided", name='text')
        pass
        t_26.extend((
            '\\textbf{',
            str(t_4(l_1_text)),
            '}',
        ))
        return concat(t_26)
    context.exported_vars.add('strong')
    context.vars['strong'] = l_0_strong = Macro(environment, macro, 'strong', ('text',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_text):
        t_27 = []
        if l_1_text is missing:
            l_1_text = undefined("parameter 'text' was not provided", name='text')
        pass
        t_27.append(
            str(t_4(t_2(t_9(t_1(l_1_text, 'texcode')), 'texcode'))),
        )
        return concat(t_27)
    context.exported_vars.add('code')
    context.vars['code'] = l_0_code = Macro(environment, macro, 'code', ('text',), False, False, False, context.eval_ctx.autoescape)
    def macro():
        t_28 = []
        pass
        t_28.append(
            '\\medskip\\hrule\\medskip\n',
        )
        return concat(t_28)
    context.exported_vars.add('rule')
    context.vars['rule'] = l_0_rule = Macro(environment, macro, 'rule', (), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_kind, l_1_lang, l_1_cjk):
        t_29 = []
        l_1_msg = resolve('msg')
        l_1_face = resolve('face')
        if l_1_kind is missing:
            l_1_kind = undefined("parameter 'kind' was not provided", name='kind')
        if l_1_lang is missing:
            l_1_lang = undefined("parameter 'lang' was not provided", name='lang')
        if l_1_cjk is missing:
            l_1_cjk = 'ctex'
        pass
        if (l_1_kind == 'beamer'):
            pass
            if (l_1_cjk == 'ctex'):
                pass
                t_29.extend((
                    '\\documentclass[aspectratio=1610,12pt,fontset=none,scheme=',
                    str(t_4(('chinese' if (l_1_lang == 'zh') else 'plain'))),
                    ']{ctexbeamer}\n',
                ))
            else:
                pass
                t_29.extend((
                    '\\documentclass[aspectratio=1610,12pt]{beamer}\n\\usepackage{',
                    str(t_4(('xeCJK' if l_1_cjk else 'fontspec'))),
                    '}\n',
                ))
            t_29.extend((
                "% bookmarks written in the same run (beamer's own outlines need a second xelatex run)\n\\usepackage{bookmark}\n\\usetheme{default}\n\\usecolortheme{seahorse}\n% math in one face: beamer sets letters in sans italic and digits, units and operators in serif\n\\usefonttheme[onlymath]{serif}\n\\setbeamertemplate{navigation symbols}{}\n% the frame number sits in the title bar (no total: one TeX run), so the whole frame below it is for the\n% content; nothing in a deck is smaller than 10 pt (math 10.5 pt)\n\\setbeamertemplate{footline}{}\n% a frame that allows breaks (allowframebreaks=1, see _beamer.j2) is cut by \\vsplit to \\textheight, the\n% height of its title and text area together: beamer's default 0.95 wasted the bottom 14 pt, and a frame\n% that fitted broke, its last line alone on a continuation frame. The cut leaves the depth of the last box\n% out of the height it fits unless \\splitmaxdepth says otherwise (LaTeX's is \\maxdimen): an aligned display\n% sits half below its baseline, so a frame ending in a tall display was judged to fit and ran off the\n% bottom by that half. Every depth counts as height here, and the frame breaks before it.\n\\AtBeginDocument{\\splitmaxdepth=0pt}\n\\setbeamertemplate{frametitle}{\\nointerlineskip\\begin{beamercolorbox}[wd=\\paperwidth,sep=0.3em,leftskip=0.6em,rightskip=0.6em]{frametitle}\\usebeamerfont{frametitle}\\insertframetitle\\hfill{\\footnotesize\\insertframenumber}\\ifx\\insertframesubtitle\\empty\\else\\par{\\usebeamerfont{framesubtitle}\\usebeamercolor[fg]{framesubtitle}\\insertframesubtitle}\\fi\\end{beamercolorbox}}\n\\setbeamerfont{frametitle}{size=\\large}\n\\setbeamerfont{framesubtitle}{size=\\small}\n\\setbeamerfont{title}{size=\\Large}\n\\setbeamerfont{subtitle}{size=\\normalsize}\n\\setbeamertemplate{frametitle continuation}{\\ifnum\\insertcontinuationcount>1",
                str(t_4(('' if (l_1_lang == 'en') else '\\unskip'))),
                str(t_4(environment.call(context, (undefined(name='msg') if l_1_msg is missing else l_1_msg), 'w_slides_more', ('zh' if (l_1_lang == 'both') else l_1_lang)))),
                '\\fi}\n\\AtBeginDocument{\\DeclareMathSizes{12}{12}{10.5}{10.5}\\DeclareMathSizes{10.95}{10.95}{10.5}{10.5}\\DeclareMathSizes{10}{10.5}{10.5}{10.5}\\DeclareMathSizes{14.4}{14.4}{10.5}{10.5}\n  \\setlength{\\abovedisplayskip}{2pt}\\setlength{\\belowdisplayskip}{2pt}\\setlength{\\abovedisplayshortskip}{0pt}\\setlength{\\belowdisplayshortskip}{2pt}}\n',
            ))
        else:
            pass
            if (l_1_cjk == 'ctex'):
                pass
                t_29.extend((
                    '\\documentclass[11pt,a4paper,fontset=none,scheme=',
                    str(t_4(('chinese' if (l_1_lang == 'zh') else 'plain'))),
                    ']{ctexart}\n',
                ))
            else:
                pass
                t_29.extend((
                    '\\documentclass[11pt,a4paper]{article}\n\\usepackage{',
                    str(t_4(('xeCJK' if l_1_cjk else 'fontspec'))),
                    '}\n',
                ))
            t_29.append(
                '\\usepackage[margin=2.2cm]{geometry}\n\\usepackage{xcolor}\n\\usepackage[hidelinks,pdfpagelabels=false]{hyperref}\n\\usepackage{bookmark}\n% a longtable starts with a place to break (\\penalty0): under a heading kept with what follows it\n% (\\@nobreak, see lead() below) it breaks nowhere before its first row, or the heading stood alone at the\n% foot of a page\n\\usepackage{etoolbox}\n\\makeatletter\n\\AtBeginDocument{\\patchcmd{\\LT@start}{\\endgraf\\penalty\\z@\\vskip\\LTpre}{\\endgraf\\if@nobreak\\else\\penalty\\z@\\fi\\vskip\\LTpre}{}{}}\n\\makeatother\n',
            )
        if l_1_cjk:
            pass
            l_1_face = (('Noto Sans CJK SC', 'FandolHei') if (l_1_kind == 'beamer') else ('Noto Serif CJK SC', 'FandolSong'))
            t_29.extend((
                '\\IfFontExistsTF{',
                str(t_4(environment.getitem((undefined(name='face') if l_1_face is missing else l_1_face), 0))),
                '}{\\setCJKmainfont{',
                str(t_4(environment.getitem((undefined(name='face') if l_1_face is missing else l_1_face), 0))),
                '}[BoldFont={',
                str(t_4(environment.getitem((undefined(name='face') if l_1_face is missing else l_1_face), 0))),
                ' Bold}]}\n  {\\setCJKmainfont{',
                str(t_4(environment.getitem((undefined(name='face') if l_1_face is missing else l_1_face), 1))),
                '-Regular.otf}[BoldFont=',
                str(t_4(environment.getitem((undefined(name='face') if l_1_face is missing else l_1_face), 1))),
                '-Bold.otf]}\n',
            ))
        t_29.append(
            '\\usepackage{amsmath,amssymb}\n\\usepackage{upgreek}\n\\usepackage{needspace}\n\\usepackage{adjustbox}\n\\usepackage{array,booktabs,tabularx,longtable}\n\\usepackage{newunicodechar}\n\\newunicodechar{µ}{\\ifmmode\\upmu\\else\\textmu\\fi}\n\\newunicodechar{≈}{\\ensuremath{\\approx}}\n\\newunicodechar{≤}{\\ensuremath{\\le}}\n\\newunicodechar{≥}{\\ensuremath{\\ge}}\n\\newunicodechar{→}{\\ensuremath{\\rightarrow}}\n\\newunicodechar{−}{\\ensuremath{-}}\n\\newunicodechar{✓}{\\ensuremath{\\checkmark}}\n',
        )
        for (l_2_ch, l_2_cmd) in t_3([('ℓ', '\\ell'), ('√', '\\surd'), ('∞', '\\infty'), ('≠', '\\neq'), ('≪', '\\ll'), ('≫', '\\gg'), ('∝', '\\propto'), ('⌈', '\\lceil'), ('⌉', '\\rceil'), ('⌊', '\\lfloor'), ('⌋', '\\rfloor'), ('←', '\\leftarrow'), ('⇒', '\\Rightarrow'), ('∈', '\\in'), ('∑', '\\sum'), ('α', '\\alpha'), ('β', '\\beta'), ('γ', '\\gamma'), ('δ', '\\delta'), ('ε', '\\varepsilon'), ('θ', '\\theta'), ('λ', '\\lambda'), ('μ', '\\mu'), ('π', '\\pi'), ('σ', '\\sigma'), ('τ', '\\tau'), ('φ', '\\phi'), ('ω', '\\omega'), ('Δ', '\\Delta'), ('Σ', '\\Sigma'), ('Ω', '\\Omega')]):
            _loop_vars = {}
            pass
            t_29.extend((
                '\\newunicodechar{',
                str(t_4(l_2_ch)),
                '}{\\ensuremath{',
                str(t_4(l_2_cmd)),
                '}}\n',
            ))
        l_2_ch = l_2_cmd = missing
        for (l_2_ch, l_2_d) in t_3([('⁰', '0'), ('¹', '1'), ('²', '2'), ('³', '3'), ('⁴', '4'), ('⁵', '5'), ('⁶', '6'), ('⁷', '7'), ('⁸', '8'), ('⁹', '9')]):
            _loop_vars = {}
            pass
            t_29.extend((
                '\\newunicodechar{',
                str(t_4(l_2_ch)),
                '}{\\ensuremath{^{',
                str(t_4(l_2_d)),
                '}}}\n',
            ))
        l_2_ch = l_2_d = missing
        if l_1_cjk:
            pass
            t_29.append(
                '\\xeCJKDeclareCharClass{Default}{"00B7}\n',
            )
        if (l_1_cjk and (l_1_lang == 'en')):
            pass
            t_29.append(
                '\\xeCJKDeclareCharClass{Default}{"2018 -> "201D}\\xeCJKsetup{CJKecglue={}}\n',
            )
        t_29.append(
            '\\setlength{\\parindent}{0pt}\n\\setlength{\\parskip}{0.35em}\n\\setlength{\\emergencystretch}{3em}\n\\newcommand{\\RR}{\\raggedright\\arraybackslash}\n\\newcommand{\\secondlang}[1]{\\begingroup\\color{black!62}\\itshape #1\\endgroup}\n% a display equation that shrinks to the line width instead of running into the margin\n\\newcommand{\\deq}[1]{\\par\\smallskip{\\centering\\adjustbox{max width=\\linewidth}{$\\displaystyle #1$}\\par}\\smallskip}\n',
        )
        if (l_1_kind == 'beamer'):
            pass
            t_29.append(
                "% a derivation row as wide as the frame allows: \\slideleft is the widest left side of the display\n% (\\slideleft=0pt, then \\slideleftof{a} for each row); a row too wide for the rest of the line gives its\n% substituted numbers way to its result (\\slidefit{full}{result}: the article shows it whole), or a\n% formula wraps after a + or a relation, inside a product only if it must (\\slidewrap{formula}); a row\n% never shrinks and never runs into the margin: a formula that no wrapping fits (a root or fraction wider\n% than the frame) leaves its row to the left side, and the next row's result follows it\n\\newdimen\\slideleft\n\\newif\\ifslidefits\n\\newcommand\\slideleftof[1]{\\setbox0=\\hbox{$\\displaystyle#1$}\\ifdim\\wd0>\\slideleft\\global\\slideleft=\\wd0\\fi}\n\\newcommand\\slidefit[2]{\\setbox0=\\hbox{$\\displaystyle#1$}\\ifdim\\dimexpr\\wd0+\\slideleft\\relax>\\displaywidth\n  \\setbox0=\\hbox{$\\displaystyle#2$}\\slidewidthof{\\dimexpr\\wd0+\\slideleft\\relax}#2\\else\\slidewidthof{\\dimexpr\\wd0+\\slideleft\\relax}#1\\fi}\n% \\slidewidth: the widest row of a derivation as set (\\slidefit, \\slidewrap, \\slidemath): a derivation no\n% wider than a column is set the same in that column, every row as the article shows it\n\\newdimen\\slidewidth\n\\newcommand\\slidewidthof[1]{\\ifdim#1>\\slidewidth\\global\\slidewidth=#1\\fi}\n\\newcommand\\slidemath[1]{\\setbox0=\\hbox{$\\displaystyle#1$}\\slidewidthof{\\wd0}}\n% a display outside an aligned derivation (a step written out, _solution.j2) counts too\n\\renewcommand{\\deq}[1]{\\slidemath{\\relax#1}\\par\\smallskip{\\centering\\adjustbox{max width=\\linewidth}{$\\displaystyle #1$}\\par}\\smallskip}\n% \\slidelinesfit{n}: whether every line of the paragraph in box n is no wider than the line it was set in\n\\newcommand\\slidelinesfit[1]{\\global\\slidefitstrue\\setbox2=\\vbox{\\unvcopy#1\\loop\\setbox4=\\lastbox\\ifhbox4\n  \\setbox6=\\hbox{\\unhcopy4}\\ifdim\\wd6>\\dimexpr\\wd4+0.5pt\\relax\\global\\slidefitsfalse\\fi\\unskip\\unpenalty\\repeat}}\n\\newcommand\\slidewrap[1]{\\setbox0=\\hbox{$\\displaystyle#1$}\\ifdim\\dimexpr\\wd0+\\slideleft\\relax>\\displaywidth\n  \\setbox0=\\vtop{\\hsize=\\dimexpr\\displaywidth-\\slideleft\\relax\\parindent=0pt\\leftskip=0pt\\rightskip=0pt plus 1fil\n    \\hangindent=2em\\hangafter=1\\relpenalty=0\\binoppenalty=0\\let\\slidedot\\cdot\\let\\slidetimes\\times\n    \\def\\cdot{\\slidedot\\penalty2000 }\\def\\times{\\slidetimes\\nobreak}\\hbadness=10000\\hfuzz=\\maxdimen\n    \\noindent$\\displaystyle#1$\\par}\\slidelinesfit0\\slidewidthof{\\displaywidth}\\ifslidefits\\box0\\fi\n  \\else\\slidewidthof{\\dimexpr\\wd0+\\slideleft\\relax}#1\\fi}\n% a table on a slide set one row a box (\\slidetable, \\slidetablerow, _beamer.j2's given_table): a tabular is one\n% box, which allowframebreaks cannot split, so a table taller than the frame left its frame empty and ran off\n% the bottom of the next; rows in boxes of their own break between two rows. The columns are as wide on every\n% row: \\slidewidest{\\dimen}{material} widens a column to its widest entry, then \\slidetable keeps the symbol\n% and value columns at theirs (they never wrap) and the source column at its own up to a third of the rest;\n% the quantity's name takes what is left\n\\newdimen\\slidetablesym \\newdimen\\slidetableval \\newdimen\\slidetablesrc \\newdimen\\slidetablename\n\\newcommand\\slidewidest[2]{\\setbox0=\\hbox{\\relax#2}\\ifdim\\wd0>#1#1=\\wd0\\fi}\n\\newcommand\\slidetable{\\dimen0=\\dimexpr\\linewidth-6\\tabcolsep-\\slidetablesym-\\slidetableval\\relax\n  \\ifdim\\slidetablesrc>\\dimexpr\\dimen0/3\\relax\\slidetablesrc=\\dimexpr\\dimen0/3\\relax\\fi\n  \\slidetablename=\\dimexpr\\dimen0-\\slidetablesrc\\relax\n  \\parskip=0pt\\lineskip=0pt\\lineskiplimit=0pt}\n\\newcommand\\slidetablerow[1]{\\par\\noindent\\begin{tabular}{@{}>{\\RR}p{\\slidetablename}>{\\RR}p{\\slidetablesym}>{\\RR}p{\\slidetableval}>{\\RR}p{\\slidetablesrc}@{}}#1\\end{tabular}\\par}\n% A question's frame laid out as measured (issue 11: one frame a question, a continuation only when the\n% derivation does not fit, never a frame with the notes alone). _beamer.j2 defines \\slidehead (the question\n% and the results cited), \\slidederiv (the derivation, one \\slideblock a step) and \\slidenote (the notes, or\n% empty); \\slidequestion sets them in the first layout that fits the room the frame has under its title:\n%   one frame: the notes beside the derivation; the notes under it; two narrow steps side by side, the\n%   notes under them;\n%   two frames (the derivation does not fit one): the first frame full up to a step, the rest of the\n%   derivation on the continuation with the notes beside or under it, or the same with two narrow steps\n%   side by side.\n% Two steps stand side by side only when their widest rows (\\slidewidth) fit the frame's width together:\n% every row is then set as on a full-width frame. Nothing shrinks; what fits no layout breaks where beamer breaks it.\n\\makeatletter\n\\newbox\\slideH \\newbox\\slideD \\newbox\\slideN \\newbox\\slideL \\newbox\\slideR \\newbox\\slideT \\newbox\\slideU \\newbox\\slideP \\newbox\\slideQ\n\\newdimen\\slideroom \\newdimen\\slidefree \\newdimen\\slidewide\n\\newdimen\\slidederw \\newdimen\\slidenotew \\newdimen\\slidepairw \\newdimen\\slidelastw \\newdimen\\slidelastnotew\n\\newcount\\slideidx \\newcount\\slidenblocks\n\\newskip\\slidecolsep \\slidecolsep=1.2em\n\\newif\\ifslidedone \\newif\\ifslidepending\n% the height a [t] frame has for its body under its title, the title set as beamer sets it and the top skip\n% of a [t] frame, .2cm (beamerbaseframe.sty), less 2 pt for rounding; beamer opens the body with\n% \\vskip-\\parskip, which gives that much back (a continuation held a line that fitted the first frame)\n\\newcommand\\slidemeasureroom{\\setbox\\z@=\\vbox{\\vbox{}{\\parskip\\z@\\usebeamertemplate***{frametitle}\\vskip0.25em}}%\n  \\slideroom=\\dimexpr\\textheight-\\ht\\z@-\\dp\\z@-.2cm+\\parskip-2pt\\relax}\n% \\slideset{box}{width}{material}: a vbox that wide, no depth below its last line\n\\newcommand\\slideset[3]{\\setbox#1=\\vbox{\\hsize=#2\\linewidth=#2\\columnwidth=#2\\relax#3\\par\\kern\\z@}}\n% \\slidesplit{box}{height}: \\slideL the first part of the box up to that height (at its natural height),\n% the box keeps the rest (void when nothing is left)\n\\newcommand\\slidesplit[2]{\\setbox\\slideL=\\vsplit#1 to#2\\setbox\\slideL=\\vbox{\\unvbox\\slideL\\kern\\z@}%\n  \\ifvoid#1\\else\\setbox#1=\\vbox{\\unvbox#1\\kern\\z@}\\fi}\n% \\slidesplitfirst{box}: \\slideL what fits the first frame under the question, the box the rest; a\n% derivation that fits whole leaves its last part for the continuation (the notes never alone there)\n\\newcommand\\slidesplitfirst[1]{\\setbox\\slideT=\\copy#1\\slidesplit\\slideT\\slidefree\n  \\ifvoid\\slideT\\dimen@=\\dimexpr\\ht#1-1pt\\relax\\slidesplit#1\\dimen@\\else\\setbox#1=\\box\\slideT\\fi}\n% \\slidepair{left}{left width}{right}{right width}: side by side in \\slideT, tops aligned, frame-wide\n\\newcommand\\slidepair[4]{\\wd#1=#2\\wd#3=#4\\setbox\\slideT=\\vbox{\\hbox to\\linewidth{\\vtop{\\kern\\z@\\box#1}\\hfil\n  \\vtop{\\kern\\z@\\box#3}}\\kern\\z@}}\n\\newcommand\\slidehigher[2]{\\ifdim\\ht#1>\\ht#2\\ht#1\\else\\ht#2\\fi}\n% the frame's body from boxes: \\slideput{box}, the paragraph skip before all but the first\n\\newcommand\\slideput[1]{\\ifvoid#1\\else\\ifslidedone\\vskip\\parskip\\fi\\nointerlineskip\\box#1\\slidedonetrue\\fi}\n% the steps: as they come, each one's widest row kept (\\slidebw@n); or two in a row when both fit a half\n\\newcommand\\slideblock@flow[1]{\\global\\advance\\slideidx\\@ne\\global\\slidewidth=\\z@\n  \\setbox\\slideT=\\vbox{\\relax#1\\par\\kern\\z@}\\slidemeasure\\slideT\n  \\expandafter\\xdef\\csname slidebw@\\the\\slideidx\\endcsname{\\the\\slidewidth}%\n  \\ifdim\\slidewidth>\\slidewide\\global\\slidewide=\\slidewidth\\fi\\unvbox\\slideT}\n% \\slidemeasure{box}: \\slidewidth at least as wide as the widest line in the box at its natural width (an\n% aligned display is as wide as its line, its rows and the skip after its last column inside)\n\\newcommand\\slidestrip{\\unskip\\unkern\\unpenalty}\n\\newcommand\\slidemeasure[1]{\\setbox\\z@=\\vbox{\\unvcopy#1\\loop\\slidestrip\\slidestrip\\slidestrip\\setbox\\tw@=\\lastbox\\ifhbox\\tw@\n  \\setbox\\tw@=\\hbox{\\unhcopy\\tw@}\\slidewidthof{\\wd\\tw@}\\repeat}}\n\\newcommand\\slideblock@pair[1]{\\global\\advance\\slideidx\\@ne\\ifnum\\slideidx>\\slideskipn\\ifnum\\slideidx>\\slidestopn\\else\n  \\ifslidepending\\slideset\\slideR{\\dimexpr\\linewidth-\\slidecolsep-\\slidepairw\\relax}{\\relax#1}%\n    \\slidepair\\slideL\\slidepairw\\slideR{\\dimexpr\\linewidth-\\slidecolsep-\\slidepairw\\relax}\\slideput\\slideT\n    \\slidependingfalse\n  \\else\\slidepairs\\ifslidepairs\\slideset\\slideL\\slidepairw{\\relax#1}\\slidependingtrue\n  \\else\\slideset\\slideT\\linewidth{\\relax#1}\\slideput\\slideT\\fi\\fi\\fi\\fi}\n% the steps \\slideblock@pair sets: those after the first \\slideskipn, up to the \\slidestopn-th\n\\newcount\\slideskipn \\newcount\\slidestopn \\slidestopn=\\@M \\newcount\\slidek\n% whether this step and the next stand side by side: both have rows, and both fit the frame's width with\n% the gap between them; \\slidepairw the left one's share (its width and half the room left)\n\\newif\\ifslidepairs\n\\newcommand\\slidepairs{\\slidepairsfalse\\ifslidepairing\\ifnum\\slideidx<\\slidenblocks\\ifnum\\slideidx<\\slidestopn\n  \\dimen@=\\csname slidebw@\\the\\slideidx\\endcsname\\relax\n  \\dimen2=\\csname slidebw@\\the\\numexpr\\slideidx+1\\endcsname\\relax\n  \\ifdim\\dimen@>\\z@\\ifdim\\dimen2>\\z@\\ifdim\\dimexpr\\dimen@+\\dimen2+\\slidecolsep\\relax>\\linewidth\\else\n    \\slidepairstrue\\slidepairw=\\dimexpr(\\linewidth-\\slidecolsep+\\dimen@-\\dimen2)/2\\relax\\fi\\fi\\fi\\fi\\fi\\fi}\n\\newif\\ifslidepairing\n\\let\\slideblock\\slideblock@flow\n% \\slidesteps{box}{width}{f, b or p}: the derivation set that wide, as it comes (f), one box a step (b: a\n% frame breaks between two steps, never inside one), or so with two narrow steps in a row (p)\n\\newcommand\\slidesteps[3]{\\global\\slideidx=\\z@\\slidependingfalse\n  \\ifx#3f\\let\\slideblock\\slideblock@flow\\else\\let\\slideblock\\slideblock@pair\\fi\n  \\ifx#3p\\slidepairingtrue\\else\\slidepairingfalse\\fi\n  \\setbox#1=\\vbox{\\hsize=#2\\linewidth=#2\\columnwidth=#2\\relax\\slidedonefalse\\slidederiv\\par\n    \\ifslidepending\\wd\\slideL=\\linewidth\\slideput\\slideL\\fi\\kern\\z@}%\n  \\ifx#3f\\global\\slidenblocks=\\slideidx\\fi\\let\\slideblock\\slideblock@flow}\n\\newcommand\\slidenotes[2]{\\ifx\\slidenote\\@empty\\setbox#1=\\box\\voidb@x\\else\\slideset#1#2{\\slidenote}\\fi}\n\\newcommand\\slideif[1]{\\ifx\\slidelayout\\relax\\else#1\\fi}\n\\newcommand\\slidequestion{\\begingroup\\vbadness=\\@M\\vfuzz=\\maxdimen\\splittopskip=\\z@\\splitmaxdepth=\\z@\n  \\let\\slidelayout\\@empty\\slidemeasureroom\n  \\slideset\\slideH\\linewidth{\\slidehead}%\n  \\global\\slidewide=\\z@\\slidesteps\\slideD\\linewidth f%\n  \\slidefree=\\dimexpr\\slideroom-\\ht\\slideH-\\parskip\\relax\n  \\slidederw=\\ifdim\\slidewide>0.56\\linewidth\\slidewide\\else0.56\\linewidth\\fi\n  \\slidenotew=\\dimexpr\\linewidth-\\slidederw-\\slidecolsep\\relax\n  \\slidedonefalse\n  \\slideif\\slidebeside\\slideif\\slideunder\\slideif\\slidepaired\\slideif\\slidebesidelast\n  \\slideif\\slidebesidenext\\slideif\\slideundernext\\slideif\\slidepairednext\\slideif\\slidenextpaired\n  \\slideif\\slideflownext\n  % none fits: the frame breaks where it must\n  \\slideif{\\slidehead\\par\\slidederiv\\par\\slidenote\\par}%\n  \\endgroup}\n\\newcommand\\slidedone{\\let\\slidelayout\\relax}\n% one frame: the notes beside the derivation\n\\newcommand\\slidebeside{\\ifx\\slidenote\\@empty\\else\\ifdim\\slidenotew<0.3\\linewidth\\else\n  \\slidesteps\\slideU\\slidederw f\\slidenotes\\slideN\\slidenotew\n  \\ifdim\\slidehigher\\slideU\\slideN>\\slidefree\\else\n    \\slidepair\\slideU\\slidederw\\slideN\\slidenotew\\slideput\\slideH\\slideput\\slideT\\slidedone\\fi\\fi\\fi}\n% one frame: the notes beside the last step when it is narrow (a rounding, the boxed answer), the steps before\n% it across the frame: a continuation frame held that last line and the notes alone (Problem 2, Question 1)\n\\newcommand\\slidebesidelast{\\ifx\\slidenote\\@empty\\else\\ifnum\\slidenblocks>\\@ne\n  \\slidelastw=\\csname slidebw@\\the\\slidenblocks\\endcsname\\relax\n  \\slidelastnotew=\\dimexpr\\linewidth-\\slidelastw-\\slidecolsep\\relax\n  \\ifdim\\slidelastnotew<0.3\\linewidth\\else\\begingroup\\hfuzz=\\maxdimen\\hbadness=\\@M\n    \\slidesteps\\slideU\\linewidth b\\slidelaststep\\slideU\\setbox\\slideP=\\box\\slideU\n    \\slidesteps\\slideU\\slidelastw b\\slidelaststep\\slideU\n    \\global\\setbox\\slideL=\\box\\slideP\\global\\setbox\\slideR=\\box\\slideR\\endgroup\n    \\slidenotes\\slideN\\slidelastnotew\n    \\ifdim\\dimexpr\\ht\\slideL+\\parskip+\\slidehigher\\slideR\\slideN\\relax>\\slidefree\\else\n      \\slideput\\slideH\\slideput\\slideL\\slidepair\\slideR\\slidelastw\\slideN\\slidelastnotew\\slideput\\slideT\n      \\slidedone\\fi\\fi\\fi\\fi}\n% \\slidelaststep{box}: \\slideR the box's last step (one box a step, as \\slidesteps b sets them), the box the rest\n\\newcommand\\slidelaststep[1]{\\setbox#1=\\vbox{\\unvbox#1\\slidestrip\\global\\setbox\\slideR=\\lastbox\\slidestrip\\kern\\z@}}\n% one frame: the notes under the derivation (as it comes, or two narrow steps in a row)\n\\newcommand\\slideunder{\\slidenotes\\slideN\\linewidth\n  \\ifdim\\dimexpr\\ht\\slideD\\ifvoid\\slideN\\else+\\parskip+\\ht\\slideN\\fi\\relax>\\slidefree\\else\n    \\slideput\\slideH\\slideput\\slideD\\slideput\\slideN\\slidedone\\fi}\n\\newcommand\\slidepaired{\\slidesteps\\slideU\\linewidth p\\slidenotes\\slideN\\linewidth\n  \\ifdim\\dimexpr\\ht\\slideU\\ifvoid\\slideN\\else+\\parskip+\\ht\\slideN\\fi\\relax>\\slidefree\\else\n    \\slideput\\slideH\\slideput\\slideU\\slideput\\slideN\\slidedone\\fi}\n% two frames: the first full, the rest of the derivation on the continuation, the notes beside it\n\\newcommand\\slidebesidenext{\\ifx\\slidenote\\@empty\\else\\ifdim\\slidenotew<0.3\\linewidth\\else\n  \\slidesteps\\slideU\\slidederw b\\slidenotes\\slideN\\slidenotew\n  \\slidesplitfirst\\slideU\\slidebalance{\\slidehigher\\slideP\\slideN}%\n  \\ifvoid\\slideU\\else\\ifdim\\dimexpr\\slidehigher\\slideU\\slideN\\ifdim\\ht\\slideL>\\slidefree+\\slideroom\\fi\\relax>\\slideroom\\else\n    \\setbox\\slideR=\\box\\slideL\\setbox\\slideL=\\vbox{\\hbox to\\linewidth{\\hfil\\box\\slideR\\hfil}\\kern\\z@}%\n    \\slideput\\slideH\\slideput\\slideL\\framebreak\\slidedonefalse\n    \\slidepair\\slideU\\slidederw\\slideN\\slidenotew\\slideput\\slideT\\slidedone\\fi\\fi\\fi\\fi}\n% two frames: the rest of the derivation on the continuation, the notes under it\n\\newcommand\\slideundernext{\\slidesteps\\slideU\\linewidth b\\slidenext}\n\\newcommand\\slidepairednext{\\slidesteps\\slideU\\linewidth p\\slidenext}\n% two frames, narrow steps two in a row on both: the first k steps on the first frame, the rest on the\n% continuation, for the least k that fits them (LLaMA 3-70B's decode step in both languages took three frames,\n% a pair of steps across the frame break)\n\\newcommand\\slidenextpaired{\\slidenotes\\slideN\\linewidth\\slidek=\\z@\n  \\loop\\advance\\slidek\\@ne\\ifnum\\slidek<\\slidenblocks\n    \\global\\slidestopn=\\slidek\\slidesteps\\slideP\\linewidth p%\n    \\global\\slideskipn=\\slidek\\global\\slidestopn=\\@M\\slidesteps\\slideU\\linewidth p\\global\\slideskipn=\\z@\n    \\ifdim\\ht\\slideP>\\slidefree\\slidek=\\slidenblocks\n    \\else\\ifdim\\dimexpr\\ht\\slideU\\ifvoid\\slideN\\else+\\parskip+\\ht\\slideN\\fi\\relax>\\slideroom\\else\n      \\slideput\\slideH\\slideput\\slideP\\framebreak\\slidedonefalse\\slideput\\slideU\\slideput\\slideN\\slidedone\n      \\slidek=\\slidenblocks\\fi\\fi\n  \\repeat}\n% two frames, the first broken inside a step when no step boundary lets the rest fit the continuation\n\\newcommand\\slideflownext{\\slidesteps\\slideU\\linewidth f\\slidenext}\n\\newcommand\\slidenext{\\slidenotes\\slideN\\linewidth\n  \\slidesplitfirst\\slideU\\slidebalance{\\ht\\slideP\\ifvoid\\slideN\\else+\\parskip+\\ht\\slideN\\fi}%\n  \\ifvoid\\slideU\\else\\ifdim\\dimexpr\\ht\\slideU\\ifvoid\\slideN\\else+\\parskip+\\ht\\slideN\\fi\\ifdim\\ht\\slideL>\\slidefree+\\slideroom\\fi\\relax>\\slideroom\\else\n    \\slideput\\slideH\\slideput\\slideL\\framebreak\\slidedonefalse\\slideput\\slideU\\slideput\\slideN\\slidedone\\fi\\fi}\n% \\slidebalance{height}: a continuation (\\slideU, and the notes \\slideN) that would hold one step, the answer's\n% line and the notes, takes the step before it too when they fit there (their height, of the candidate\n% \\slideP, within the frame): a frame for a line and a note was a tail (\\slideL the first frame's steps, one\n% box a step or a pair of steps)\n\\newcommand\\slidebalance[1]{\\ifvoid\\slideU\\else\\slidecount\\slideU\\ifnum\\slidenboxes=\\@ne\\slidecount\\slideL\\ifnum\\slidenboxes>\\@ne\n  \\setbox\\slideQ=\\vbox{\\unvcopy\\slideL\\slidestrip\\global\\setbox\\slideR=\\lastbox\\slidestrip\\kern\\z@}%\n  \\setbox\\slideP=\\vbox{\\box\\slideR\\vskip\\parskip\\unvcopy\\slideU}%\n  \\ifdim\\dimexpr#1\\relax>\\slideroom\\else\\setbox\\slideL=\\box\\slideQ\\setbox\\slideU=\\box\\slideP\\fi\\fi\\fi\\fi}\n% \\slidecount{box}: \\slidenboxes the boxes (steps, pairs of steps) in a box's list\n\\newcount\\slidenboxes\n\\newcommand\\slidecount[1]{\\global\\slidenboxes=\\z@\\setbox\\z@=\\vbox{\\unvcopy#1\\loop\\slidestrip\\slidestrip\\slidestrip\n  \\setbox\\tw@=\\lastbox\\ifvbox\\tw@\\global\\advance\\slidenboxes\\@ne\\repeat}}\n% the closing frame: the answers (\\slideanswers), and the sources (\\slidesources) under them, or beside\n% them when they do not fit under; when neither fits, the sources are on the title frame, which\n% \\slideplacesources{summary's title}{its subtitle} decides before it (a frame of their own is no place\n% for them). \\slidesummarylayout sets \\slidelayout to u (under), b (beside) or n (neither)\n\\newif\\ifslidesourcesfirst\n\\newcommand\\slidesummarylayout{\\slideset\\slideH\\linewidth{\\slideanswers}\\slideset\\slideN\\linewidth{\\slidesources}%\n  \\def\\slidelayout{n}%\n  \\ifdim\\dimexpr\\ht\\slideH+\\medskipamount+\\ht\\slideN\\relax>\\slideroom\n    \\global\\slidewidth=\\z@\\slidemeasure\\slideH\n    \\slidenotew=\\dimexpr\\linewidth-\\slidewidth-\\slidecolsep\\relax\n    \\ifdim\\slidenotew<0.3\\linewidth\\else\n      \\slideset\\slideN\\slidenotew{\\slidesources}%\n      \\ifdim\\slidehigher\\slideH\\slideN>\\slideroom\\else\\def\\slidelayout{b}\\fi\\fi\n  \\else\\def\\slidelayout{u}\\fi}\n\\newcommand\\slideplacesources[2]{\\begingroup\\vbadness=\\@M\\def\\insertframetitle{ #1}\\let\\insertframesubtitle\\@empty\\ifx\\relax#2\\relax\\else\\def\\insertframesubtitle{ #2}\\fi\n  \\slidemeasureroom\\slidesummarylayout\\if n\\slidelayout\\global\\slidesourcesfirsttrue\\fi\\endgroup}\n% a title frame that carries the sources: the title in its box as \\titlepage sets it, a size smaller and\n% without the empty author and date boxes and the space around them\n\\newcommand\\slidetitlebox{\\begin{beamercolorbox}[sep=4pt,center]{title}\\usebeamerfont{title}\\large\\inserttitle\\par\n  \\ifx\\insertsubtitle\\@empty\\else\\vskip0.25em{\\usebeamerfont{subtitle}\\usebeamercolor[fg]{subtitle}\\small\\insertsubtitle\\par}\\fi\n  \\end{beamercolorbox}\\vskip0.25em}\n% the problem's statement (\\slidestatement) and the outline of its questions (\\slideitems) share a frame\n% when both fit it; \\slideplaceoutline{outline's title}{its subtitle} decides, before the frames\n\\newif\\ifslideoutlinealone\n\\newcommand\\slideplaceoutline[2]{\\begingroup\\vbadness=\\@M\\def\\insertframetitle{ #1}\\let\\insertframesubtitle\\@empty\n  \\ifx\\relax#2\\relax\\else\\def\\insertframesubtitle{ #2}\\fi\n  \\slidemeasureroom\\slideset\\slideH\\linewidth{\\slidestatement}\\slideset\\slideN\\linewidth{\\slideitems}%\n  \\ifdim\\dimexpr\\ht\\slideH+\\parskip+\\medskipamount+\\parskip+\\ht\\slideN\\relax>\\slideroom\\global\\slideoutlinealonetrue\\fi\n  \\endgroup}\n\\newcommand\\slidesummary{\\begingroup\\vbadness=\\@M\\slidemeasureroom\\slidedonefalse\n  \\ifx\\slidesources\\@empty\\slidesourcesfirsttrue\\fi\n  \\ifslidesourcesfirst\\slideset\\slideH\\linewidth{\\slideanswers}\\slideput\\slideH\n  \\else\\slidesummarylayout\n    \\if b\\slidelayout\\slidepair\\slideH\\slidewidth\\slideN\\slidenotew\\slideput\\slideT\n    \\else\\if u\\slidelayout\\slideput\\slideH\\vskip\\medskipamount\\nointerlineskip\\box\\slideN\n    \\else\\slideanswers\\par\\penalty-500\\medskip\\slidesources\\fi\\fi\\fi\n  \\endgroup}\n\\makeatother\n",
            )
        return concat(t_29)
    context.exported_vars.add('preamble')
    context.vars['preamble'] = l_0_preamble = Macro(environment, macro, 'preamble', ('kind', 'lang', 'cjk'), False, False, False, context.eval_ctx.autoescape)

blocks = {}
debug_info = '4=72&6=82&7=83&10=88&11=92&12=106&13=110&14=124&15=128&17=135&20=141&21=148&24=166&25=173&27=179&29=188&30=192&35=213&36=220&38=226&40=239&46=248&47=257&50=265&52=278&54=294&55=311&57=319&58=324&62=334&64=342&65=347&74=357&78=360&80=369&82=371&85=374&86=378&91=388&92=412&94=425&95=436&104=445&105=456&106=458&107=462&110=469&135=474&139=480&140=484&143=491&157=497&161=499&162=502&163=508&178=516&185=521&187=527&188=532&190=538&193=543&208=551'
