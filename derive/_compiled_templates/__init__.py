"""Built-in templates as Jinja compiles them (see :mod:`derive._precompile`); written by
python -m derive._compiled_templates, do not edit."""

JINJA2 = '3.1.6'

# (markup, template name): (SHA-256 of the template text, module)
INDEX: dict[tuple[str, str], tuple[str, str]] = {
    ('text', 'check.txt.j2'): ('6f209aea5bae62a4d05d4879c32b7152d095b61e84556b9b4f35b4758f136000', 'text__check_txt_j2'),
    ('text', 'list.txt.j2'): ('878f20f14b8d930712f28f5d88ab0b77c5daec22b2555f742bb8ef0ae6fa03d1', 'text__list_txt_j2'),
    ('text', 'shard.txt.j2'): ('61ceb7c0186c242ff3b056592aa4e5a3bf7d4bf9c290f51346bd87c269e32086', 'text__shard_txt_j2'),
    ('text', 'show.txt.j2'): ('b518191c8b4464ee146e3fc02bdc70e5f04bae9eb4b3d043bc4a3afd18cac4bb', 'text__show_txt_j2'),
    ('text', 'solution.txt.j2'): ('e166be91ffbd028b7d3741da6991c06328250262c249bff098fc5db64afe2f39', 'text__solution_txt_j2'),
    ('md', '_beamer.j2'): ('38ac5b59e3636986905c0b7d2621aebc6acc3694c49b4f32583c11d4578523a4', 'md___beamer_j2'),
    ('md', '_html.j2'): ('92fbe1fc63d04dd2435e73696ff97eb1291056936e5756c6572a5b4ad738c7ba', 'md___html_j2'),
    ('md', '_md.j2'): ('913af7847779ee187a1a5c0f6e27dd14b9e082ccdf673b4ad40eab45a9f7834b', 'md___md_j2'),
    ('md', '_report.j2'): ('326650d4965cc39cb57b23acc3092aabdd54e4c2f0ee111d813c51a91a6be517', 'md___report_j2'),
    ('md', '_solution.j2'): ('24afe148b2bc428d3c6e964e2408fd0a16e8875eefa602f27ae2e9320136b0f3', 'md___solution_j2'),
    ('md', '_tex.j2'): ('61bbdaf58ebfa105952884e3b39a2627d60ba4af9a3048e053f191ced6a9d601', 'md___tex_j2'),
    ('md', 'live-solution.md.j2'): ('9c587f962a726d35ec86eeb41bd92ad30967c4557de4df2fc61780f61968946e', 'md__live_solution_md_j2'),
    ('md', 'report.md.j2'): ('121758b93369017eb3655777ab71a8cbdb04fd288d57aae5281159c81bd22f7c', 'md__report_md_j2'),
    ('md', 'solution.md.j2'): ('0ea617b4dc4aceb52b6c089e2e5f1c0e1d1d360a3997b3c2bc0a132e6b355b23', 'md__solution_md_j2'),
    ('html', '_beamer.j2'): ('38ac5b59e3636986905c0b7d2621aebc6acc3694c49b4f32583c11d4578523a4', 'html___beamer_j2'),
    ('html', '_html.j2'): ('92fbe1fc63d04dd2435e73696ff97eb1291056936e5756c6572a5b4ad738c7ba', 'html___html_j2'),
    ('html', '_md.j2'): ('913af7847779ee187a1a5c0f6e27dd14b9e082ccdf673b4ad40eab45a9f7834b', 'html___md_j2'),
    ('html', '_report.j2'): ('326650d4965cc39cb57b23acc3092aabdd54e4c2f0ee111d813c51a91a6be517', 'html___report_j2'),
    ('html', '_solution.j2'): ('24afe148b2bc428d3c6e964e2408fd0a16e8875eefa602f27ae2e9320136b0f3', 'html___solution_j2'),
    ('html', '_tex.j2'): ('61bbdaf58ebfa105952884e3b39a2627d60ba4af9a3048e053f191ced6a9d601', 'html___tex_j2'),
    ('html', 'live-solution.html.j2'): ('259848d338c39349cd52dace43678ce60a368d5fdff6134a9fedf6e153bc9793', 'html__live_solution_html_j2'),
    ('html', 'report.html.j2'): ('072b59337bc3517ec42de18ca0c9f4d1ad64627a5f03aaa9b3af19cd8bf0afc4', 'html__report_html_j2'),
    ('html', 'solution.html.j2'): ('79bb8c05e403e395169b905a3a395b10a56a741c848539b562f5389630e2bfed', 'html__solution_html_j2'),
    ('tex', '_beamer.j2'): ('38ac5b59e3636986905c0b7d2621aebc6acc3694c49b4f32583c11d4578523a4', 'md___beamer_j2'),
    ('tex', '_html.j2'): ('92fbe1fc63d04dd2435e73696ff97eb1291056936e5756c6572a5b4ad738c7ba', 'md___html_j2'),
    ('tex', '_md.j2'): ('913af7847779ee187a1a5c0f6e27dd14b9e082ccdf673b4ad40eab45a9f7834b', 'md___md_j2'),
    ('tex', '_report.j2'): ('326650d4965cc39cb57b23acc3092aabdd54e4c2f0ee111d813c51a91a6be517', 'md___report_j2'),
    ('tex', '_solution.j2'): ('24afe148b2bc428d3c6e964e2408fd0a16e8875eefa602f27ae2e9320136b0f3', 'md___solution_j2'),
    ('tex', '_tex.j2'): ('61bbdaf58ebfa105952884e3b39a2627d60ba4af9a3048e053f191ced6a9d601', 'md___tex_j2'),
    ('tex', 'live-preamble.tex.j2'): ('e8758172ddf6de2afc12345f002d4eaa76db735b8fc0227494461be212d6bba1', 'tex__live_preamble_tex_j2'),
    ('tex', 'live-solution.tex.j2'): ('250318b132342c55e3d5e4f7771cf483442abafa088fcf31c015666cdd6e38dc', 'tex__live_solution_tex_j2'),
    ('tex', 'report.beamer.j2'): ('16438190b89a2b1a6b107ea1c21da6c45b3ae8596e0a062471bbc1db05bccca5', 'tex__report_beamer_j2'),
    ('tex', 'report.tex.j2'): ('dad1f96c64325495153f31f528880267c206e4d4405df218a4a02393bb63d829', 'tex__report_tex_j2'),
    ('tex', 'solution.beamer.j2'): ('91e7f1c7e73f4929dd26c075b829ffa9a369aca59c3a970563a2ff6acd365894', 'tex__solution_beamer_j2'),
    ('tex', 'solution.fragment.tex.j2'): ('29563cc55aa7ea1960aa08eb55d36afafbbc2deb93824603f710885285a6290b', 'tex__solution_fragment_tex_j2'),
    ('tex', 'solution.tex.j2'): ('84b16390f5e5bee73fff0b90d593f72819b5675852fa843a724e8e259dc5293f', 'tex__solution_tex_j2'),
}
