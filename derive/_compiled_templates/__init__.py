"""Built-in terminal templates as Jinja compiles them (see :mod:`derive._precompile`); written by
python -m derive._compiled_templates, do not edit."""

JINJA2 = '3.1.6'

# (markup, template name): (SHA-256 of the template text, module)
INDEX: dict[tuple[str, str], tuple[str, str]] = {
    ('text', 'check.txt.j2'): ('6f209aea5bae62a4d05d4879c32b7152d095b61e84556b9b4f35b4758f136000', 'text__check_txt_j2'),
    ('text', 'list.txt.j2'): ('878f20f14b8d930712f28f5d88ab0b77c5daec22b2555f742bb8ef0ae6fa03d1', 'text__list_txt_j2'),
    ('text', 'shard.txt.j2'): ('61ceb7c0186c242ff3b056592aa4e5a3bf7d4bf9c290f51346bd87c269e32086', 'text__shard_txt_j2'),
    ('text', 'show.txt.j2'): ('b518191c8b4464ee146e3fc02bdc70e5f04bae9eb4b3d043bc4a3afd18cac4bb', 'text__show_txt_j2'),
    ('text', 'solution.txt.j2'): ('e166be91ffbd028b7d3741da6991c06328250262c249bff098fc5db64afe2f39', 'text__solution_txt_j2'),
}
