"""Built-in terminal templates as Jinja compiles them (see :mod:`derive._precompile`); written by
python -m derive._compiled_templates, do not edit."""

JINJA2 = '3.1.6'

# (markup, template name): (SHA-256 of the template text, module)
INDEX: dict[tuple[str, str], tuple[str, str]] = {
    ('text', 'check.txt.j2'): ('6f209aea5bae62a4d05d4879c32b7152d095b61e84556b9b4f35b4758f136000', 'text__check_txt_j2'),
    ('text', 'list.txt.j2'): ('878f20f14b8d930712f28f5d88ab0b77c5daec22b2555f742bb8ef0ae6fa03d1', 'text__list_txt_j2'),
    ('text', 'shard.txt.j2'): ('94d51068d0b4a8eed4a77bc20cd1c5b468121d6a909301515907c89efd3bd6f1', 'text__shard_txt_j2'),
    ('text', 'show.txt.j2'): ('aaaa39c4a46f66ceb309b841b28f4e113553a3b8710ca8295b780416e8b633b3', 'text__show_txt_j2'),
    ('text', 'solution.txt.j2'): ('99990c422752bda653d2bdfb2cd1817ebbb80605f917ccac22ab7b5336d3d622', 'text__solution_txt_j2'),
}
