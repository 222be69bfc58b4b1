"""The cache cannot run code and is never trusted blindly (issue 16, item 1).

Each test plants a real payload or damages a real entry in a real cache folder and
asserts that nothing ran, the answer is still right, and the entry was rebuilt or bypassed.
"""

from __future__ import annotations

import json
import os
import pickle
import stat
from pathlib import Path

import pytest

from derive.catalog import loader as _loader
from derive.catalog.records_json import decode, encode, loads
from derive.storage.cache import read_entry, write_entry

RIGHT = 197e12 / 8.2e11       # TPU v5e: 197 TFLOP/s over 820 GB/s
ANSWER = ("solve", "critical_ai", "--hw", "tpu-v5e", "--format", "json")


class _Payload:
    """Unpickling this creates a marker file: proof that code ran."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (Path.touch, (self.marker,))


def _critical_ai(cli, cache: Path) -> float:
    run = cli(*ANSWER, env={"DERIVE_CACHE_DIR": str(cache)})
    assert run.code == 0, run.err
    assert run.json["exact"] == "9850/41"
    return run.json["value"]


def _forget_answers(cache: Path) -> None:
    """Drop the kept answers, so that the question is answered from the (damaged) catalog again."""
    for kept in cache.glob("answer-*.json"):
        kept.unlink()


def test_cache_folder_is_created_private_and_holds_only_json(cli, tmp_path):
    cache = tmp_path / "cache"
    assert _critical_ai(cli, cache) == pytest.approx(RIGHT)
    assert stat.S_IMODE(cache.stat().st_mode) == 0o700
    run = cli("solve", "critical_ai", "--hw", "tpu-v5e", "--format", "html", "-o", str(tmp_path / "a.html"),
              env={"DERIVE_CACHE_DIR": str(cache)})
    assert run.code == 0, run.err
    files = [p for p in cache.rglob("*") if p.is_file()]
    assert files and all(p.suffix == ".json" for p in files), files   # no pickle, no Jinja bytecode
    for p in files:
        assert stat.S_IMODE(p.stat().st_mode) == 0o600
        header, _, payload = p.read_text(encoding="utf-8").partition("\n")
        assert set(json.loads(header)) == {"kind", "key", "mac"}
        if json.loads(header)["kind"] == "catalog":    # JSON lines: the catalog, then each entry with its table and id
            first, *entries = payload.split("\n")
            json.loads(first)
            assert entries and all(json.loads(line.split("\t", 2)[2]) for line in entries)
        else:
            json.loads(payload)


def test_planted_pickle_payloads_never_run(cli, tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    marker = tmp_path / "ran"
    payload = pickle.dumps(_Payload(marker))
    # every name a pickle cache ever had, and the JSON entries' names holding a pickle
    _critical_ai(cli, cache)
    names = [p.name for p in cache.glob("*.json")]
    for name in names:
        (cache / name).write_bytes(payload)
    for name in ("catalog-0.pickle", "messages-0.pickle"):
        (cache / name).write_bytes(payload)
    (cache / "templates" / "md").mkdir(parents=True)
    (cache / "templates" / "md" / "__jinja2_x.cache").write_bytes(payload)
    assert _critical_ai(cli, cache) == pytest.approx(RIGHT)
    run = cli("solve", "critical_ai", "--hw", "tpu-v5e", "--format", "md", env={"DERIVE_CACHE_DIR": str(cache)})
    assert run.code == 0 and "240.2" in run.out
    assert not marker.exists()


def test_tampered_entry_is_rebuilt_not_trusted(cli, tmp_path):
    """Doubling TPU v5e's HBM bandwidth inside the cached catalog without fixing its hash changes nothing."""
    cache = tmp_path / "cache"
    right = _critical_ai(cli, cache)
    (entry,) = cache.glob("catalog-*.json")
    header, _, payload = entry.read_text(encoding="utf-8").partition("\n")
    tampered = payload.replace("820000000000", "1640000000000")
    assert tampered != payload
    entry.write_text(header + "\n" + tampered, encoding="utf-8")
    _forget_answers(cache)
    assert _critical_ai(cli, cache) == right


def _sign(entry: Path, payload: str, config: Path, monkeypatch) -> None:
    """Write ``payload`` into ``entry`` with a header a run keyed by ``config`` accepts (as derive signs it)."""
    from derive.storage import cache as _cache

    monkeypatch.setenv("XDG_CONFIG_HOME", str(config))
    _cache._secrets.clear()
    header = json.loads(entry.read_text(encoding="utf-8").partition("\n")[0])
    header["mac"] = _cache._mac(_cache.secret(), header["kind"], header["key"], payload.encode("utf-8"))
    entry.write_text(json.dumps(header) + "\n" + payload, encoding="utf-8")


def test_damaged_table_entry_with_a_valid_mac_is_built_again(cli, tmp_path, monkeypatch):
    """A table entry is decoded only when a question reads it: one that does not decode then, or
    decodes as something else, although the whole entry's HMAC checks out (signed with the user's own
    key), is taken from the catalog built again from its sources; the answer stays right."""
    cache, config = tmp_path / "cache", tmp_path / "config"
    env = {"DERIVE_CACHE_DIR": str(cache), "XDG_CONFIG_HOME": str(config)}
    right = cli(*ANSWER, env=env).json["value"]
    (entry,) = cache.glob("catalog-*.json")
    header, _, payload = entry.read_text(encoding="utf-8").partition("\n")
    shell, *entries = payload.split("\n")          # the shell, then a line per entry: table, id, its JSON
    rows = [line.split("\t", 2) for line in entries]
    assert {table for table, _, _ in rows} == {"quantities", "relations", "conditions", "presets", "references"}
    a_reference = next(text for table, _, text in rows if table == "references")
    for row in rows:
        if row[:2] == ["presets", "tpu-v5e"]:
            row[2] = '{"$r": "Popen", "state": {"args": "touch x"}}'
        if row[:2] == ["relations", "critical_ai_hbm"]:
            row[2] = a_reference
    _sign(entry, "\n".join([shell] + ["\t".join(row) for row in rows]), config, monkeypatch)
    _forget_answers(cache)
    run = cli(*ANSWER, env=env)
    assert run.code == 0 and run.json["value"] == right and run.json["exact"] == "9850/41"


def _sha256_header(entry: Path, payload: str) -> None:
    """What anyone who can edit the cache can do: change the payload and recompute a plain digest."""
    import hashlib

    header = json.loads(entry.read_text(encoding="utf-8").partition("\n")[0])
    header["mac"] = header["digest"] = hashlib.sha256(payload.encode("utf-8")).hexdigest()
    entry.write_text(json.dumps(header) + "\n" + payload, encoding="utf-8")


def test_tampered_entries_with_recomputed_digests_are_rebuilt(cli, tmp_path):
    """Audit of issue 16: each entry's digest was a plain SHA-256 beside its payload, so whoever edited
    it fixed it. A catalog whose relation became 2*peak_flops/hbm_bw answered 312, and an edited kept
    answer printed 999 FLOP/B. Entries are now authenticated by a key outside the cache folder."""
    cache = tmp_path / "cache"
    env = {"DERIVE_CACHE_DIR": str(cache), "XDG_CONFIG_HOME": str(tmp_path / "config")}
    ask = ("solve", "critical_ai", "--hw", "a100")
    assert cli(*ask, env=env).out.startswith("critical_ai_hbm = 156 FLOP/B")
    (answer,) = cache.glob("answer-*.json")
    kept = answer.read_text(encoding="utf-8").partition("\n")[2]
    assert "156 FLOP/B" in kept
    _sha256_header(answer, kept.replace("156 FLOP/B", "999 FLOP/B"))
    run = cli(*ask, env=env)
    assert run.code == 0 and run.out.startswith("critical_ai_hbm = 156 FLOP/B") and "999" not in run.out

    (catalog,) = cache.glob("catalog-*.json")
    payload = catalog.read_text(encoding="utf-8").partition("\n")[2]
    tampered = payload.replace("peak_flops / hbm_bw", "2 * peak_flops / hbm_bw")
    assert tampered != payload
    _sha256_header(catalog, tampered)
    _forget_answers(cache)
    run = cli(*ask, env=env)
    assert run.code == 0 and run.out.startswith("critical_ai_hbm = 156 FLOP/B") and "312 FLOP/B" not in run.out


def test_a_cache_folder_from_elsewhere_is_rebuilt_not_trusted(cli, tmp_path, monkeypatch):
    """A cache restored from another branch or machine carries entries signed with another key (here a
    forged one, signed by whoever made it): every one is rebuilt, and the right answer printed."""
    cache = tmp_path / "cache"
    elsewhere, here = tmp_path / "elsewhere", tmp_path / "here"
    ask = ("solve", "critical_ai", "--hw", "a100")
    assert cli(*ask, env={"DERIVE_CACHE_DIR": str(cache), "XDG_CONFIG_HOME": str(elsewhere)}).code == 0
    (answer,) = cache.glob("answer-*.json")
    _sign(answer, answer.read_text(encoding="utf-8").partition("\n")[2].replace("156 FLOP/B", "999 FLOP/B"),
          elsewhere, monkeypatch)
    forged = cli(*ask, env={"DERIVE_CACHE_DIR": str(cache), "XDG_CONFIG_HOME": str(elsewhere)})
    assert "999 FLOP/B" in forged.out            # accepted where it was signed: the key is what is trusted
    run = cli(*ask, env={"DERIVE_CACHE_DIR": str(cache), "XDG_CONFIG_HOME": str(here)})
    assert run.code == 0 and run.out.startswith("critical_ai_hbm = 156 FLOP/B") and "999" not in run.out
    assert (here / "derive" / "cache-key").is_file()


def test_the_cache_key_is_private_and_outside_the_cache(cli, tmp_path):
    config, cache = tmp_path / "config", tmp_path / "cache"
    run = cli(*ANSWER, env={"DERIVE_CACHE_DIR": str(cache), "XDG_CONFIG_HOME": str(config)})
    assert run.code == 0 and run.err == ""
    key = config / "derive" / "cache-key"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600 and stat.S_IMODE(key.parent.stat().st_mode) == 0o700
    assert len(bytes.fromhex(key.read_text())) == 32
    assert not any("key" in p.name for p in cache.iterdir())


@pytest.mark.parametrize("damage", ["readable", "writable-folder", "symlink", "inside-cache", "not-a-key"])
def test_an_unsafe_cache_key_bypasses_the_cache(cli, tmp_path, damage):
    """A key others could read or replace, a link, one inside the cache folder, or one that is not a
    key: the cache is not used (one warning), the answer is still right, and nothing is written."""
    config, cache = tmp_path / "config", tmp_path / "cache"
    key = config / "derive" / "cache-key"
    key.parent.mkdir(parents=True, mode=0o700)
    key.write_text("ab" * 32 + "\n")
    key.chmod(0o600)
    if damage == "readable":
        key.chmod(0o644)
    elif damage == "writable-folder":
        key.parent.chmod(0o777)
    elif damage == "symlink":
        (tmp_path / "real-key").write_text("ab" * 32 + "\n")
        key.unlink()
        key.symlink_to(tmp_path / "real-key")
    elif damage == "inside-cache":
        config = cache / "config"
    else:
        key.write_text("not hex at all\n")
    run = cli(*ANSWER, env={"DERIVE_CACHE_DIR": str(cache), "XDG_CONFIG_HOME": str(config)})
    assert run.code == 0 and run.json["exact"] == "9850/41"
    warnings = [line for line in run.err.splitlines() if "warning" in line]
    assert len(warnings) == 1 and "cache key" in warnings[0]
    assert not list(cache.glob("*.json"))


def test_cache_off_makes_no_key(cli, tmp_path):
    config = tmp_path / "config"
    run = cli(*ANSWER, env={"DERIVE_CACHE_DIR": "off", "XDG_CONFIG_HOME": str(config)})
    assert run.code == 0 and run.json["exact"] == "9850/41" and run.err == ""
    assert not config.exists()


def test_unknown_record_types_are_refused():
    for planted in ({"$r": "Popen", "state": {"args": "touch x"}},
                    {"$r": "Catalog", "state": {"__class__": "x"}},
                    {"$q": [1, 0]}, {"$f": ["1", 2]}, [1, 2], {"$t": 3}, {"x": 1}):
        with pytest.raises(ValueError):
            decode(planted)
    for text in ('{"$r": "Popen", "state": {"args": "touch x"}}', '{"$q": [1, 0]}', '{"$r": "Text", "state": 3}',
                 '{"$r": "Text", "state": {"__class__": 1}}', '{"$x": 1}', '{"$ref": 0}', '{"$ref": "0"}',
                 '{"$t": [{"$r": "Text", "state": {"en": "a", "zh": "b"}}, {"$ref": 1}]}'):
        with pytest.raises((ValueError, ZeroDivisionError)):
            loads(text)


@pytest.fixture
def built_catalog():
    """A catalog built from its sources: one read from the cache (the session's, once a test has warmed it)
    holds lazy tables of JSON text, not records."""
    saved = dict(_loader._loaded)
    _loader._loaded.clear()
    try:
        yield _loader.load_catalog(use_cache=False)
    finally:
        _loader._loaded.clear()
        _loader._loaded.update(saved)


def test_records_round_trip_exactly(built_catalog):
    catalog = built_catalog
    data = encode(catalog)
    again = decode(json.loads(json.dumps(data)))
    assert encode(again) == data
    assert encode(loads(json.dumps(data))) == data            # the one-pass reader gives the same
    assert again.quantities["hbm_bw"].name == catalog.quantities["hbm_bw"].name
    assert again.relations["critical_ai_hbm"].rhs == catalog.relations["critical_ai_hbm"].rhs
    # a record written again is a reference to the first, read back as the same object
    assert '"$ref"' in json.dumps(data)
    sources = [q.source for q in again.quantities.values()
               if (q.source.ref, q.source.locator) == ("scaling-book-rooflines", 'section "Rooflines"')]
    assert len(sources) > 1 and len({id(s) for s in sources}) == 1


def test_entries_check_their_key_and_mac(tmp_path, monkeypatch):
    monkeypatch.setenv("DERIVE_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path.parent / f"{tmp_path.name}-config"))
    write_entry("thing", "k" * 64, {"a": [1, 2]})
    assert read_entry("thing", "k" * 64) == {"a": [1, 2]}
    assert read_entry("thing", "k" * 32 + "j" * 32) is None          # same file name, other key
    (path,) = tmp_path.glob("thing-*.json")
    header, _, payload = path.read_text().partition("\n")
    path.write_text(header + "\n" + payload.replace("1", "9"))
    assert read_entry("thing", "k" * 64) is None
    path.write_text("{not json")
    assert read_entry("thing", "k" * 64) is None
    path.unlink()
    os.mkfifo(path)                                                   # a FIFO is never opened (no hang)
    assert read_entry("thing", "k" * 64) is None


def test_shared_cache_folder_is_bypassed_with_one_warning(cli, tmp_path):
    cache = tmp_path / "shared"
    cache.mkdir()
    cache.chmod(0o777)
    run = cli(*ANSWER, env={"DERIVE_CACHE_DIR": str(cache)})
    assert run.code == 0
    assert run.json["exact"] == "9850/41"
    warnings = [line for line in run.err.splitlines() if "warning" in line]
    assert len(warnings) == 1 and str(cache) in warnings[0]
    assert list(cache.iterdir()) == []                              # nothing written there


def test_cache_folder_of_another_user_is_bypassed(tmp_path, monkeypatch, capsys):
    from derive.storage import cache as _cache

    monkeypatch.setenv("DERIVE_CACHE_DIR", str(tmp_path))
    tmp_path.chmod(0o700)
    owner = tmp_path.stat().st_uid
    monkeypatch.setattr(os, "getuid", lambda: owner + 1)             # run as someone else
    _cache._warned.clear()
    assert _cache.cache_dir() is None
    assert "another user" in capsys.readouterr().err


def test_unusable_cache_never_fails_an_answer(cli, tmp_path):
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("x")
    run = cli(*ANSWER, env={"DERIVE_CACHE_DIR": str(not_a_folder)})
    assert run.code == 0 and run.json["exact"] == "9850/41"
    # an entry that cannot be written (its name is taken by a folder) only loses the cache
    cache = tmp_path / "cache"
    _critical_ai(cli, cache)
    for entry in cache.glob("*.json"):
        entry.unlink()
        entry.mkdir()
    _loader._loaded.clear()
    assert _critical_ai(cli, cache) == pytest.approx(RIGHT)


def test_the_messages_cache_is_keyed_by_content_not_by_size_and_time(tmp_path, monkeypatch):
    """Issue 16, item 1: the messages cache was keyed by path, mtime and size; an edit that kept both was
    never seen (and a planted entry with the same three was trusted)."""
    from derive.writeup.render import _environment, _messages, message_table

    monkeypatch.setenv("DERIVE_CACHE_DIR", str(tmp_path / "cache"))
    pack = tmp_path / "pack"
    pack.mkdir()
    path = pack / "messages-x.yaml"
    path.write_text("w_question: {en: Aaaa, zh: Aaaa}\n", encoding="utf-8")
    stamp = path.stat().st_mtime_ns
    _messages.cache_clear()
    _environment.cache_clear()
    assert message_table(pack)["w_question"]["en"] == "Aaaa"
    path.write_text("w_question: {en: Bbbb, zh: Bbbb}\n", encoding="utf-8")      # same size
    os.utime(path, ns=(stamp, stamp))                                            # same time
    _messages.cache_clear()
    _environment.cache_clear()
    assert message_table(pack)["w_question"]["en"] == "Bbbb"
    assert [p.suffix for p in (tmp_path / "cache").iterdir()] == [".json", ".json"]
