"""Compile a LaTeX write-up to PDF with ``xelatex`` and ``xdvipdfmx`` in a private build folder.

Templates are user input (``--templates DIR``), so the TeX they produce is untrusted. A build

- runs in a fresh temporary folder with a minimal environment: ``HOME``, ``TEXMFHOME``,
  ``TEXMFVAR``, ``TEXMFCONFIG`` and ``TMPDIR`` all inside that folder, nothing else of the user's
  environment (so kpathsea's ``~`` and ``$VAR`` expansion cannot point outside), no shell escape,
  kpathsea's paranoid file access (no absolute or parent paths);
- refuses, before running TeX, file names with ``~`` or ``$``, absolute or ``..`` paths in the
  commands that read files (``\\input``, ``\\XeTeXpicfile``, ``\\includegraphics``, ``\\special``, ...)
  and TeX's ``^^`` character escapes;
- checks afterwards every file TeX read (its ``-recorder`` list) and every picture or PDF the driver
  embedded (``xdvipdfmx -vv``): one outside the build folder and the TeX and font trees fails the build,
  and then neither the PDF nor the log leaves the build folder;
- has a time budget (:data:`TIMEOUT`) that kills the whole process group of the build (xelatex
  included, never an orphan), a CPU and file-size limit on every process, and a page budget
  (:data:`MAX_PAGES`).

A failed compile becomes one :class:`~derive.TemplateError` line carrying TeX's own error lines
(``! Undefined control sequence.`` and ``l.42 ...``); the ``.tex`` and ``.log`` are kept for a closer
look in a new folder beside the requested PDF (``paper.pdf.failed-XXXX/``), never over a user's file.
The PDF itself is written atomically. :func:`compile_many` builds several PDFs concurrently.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence

from ..errors import TemplateError

__all__ = ["build_pdf", "compile_many", "compile_tex", "interruptible", "tex_errors"]

TIMEOUT = 120.0          # seconds of wall time for a whole build (every TeX run and the driver)
MAX_PAGES = 400          # pages a write-up may have
MAX_FILE_BYTES = 256 * 2**20  # largest file any process of the build may write
MAX_RUNS = 3             # xelatex runs (a second only when TeX asks for a rerun)
_ERROR_LINE = re.compile(r"^(! .*|l\.\d+.*)$")


def tex_errors(log: str, limit: int = 4) -> list[str]:
    """The ``! ...`` lines and ``l.NN ...`` lines of a TeX log, in order, at most ``limit`` of each pair."""
    lines = [m.group(1).strip() for m in map(_ERROR_LINE.match, log.splitlines()) if m]
    return lines[: 2 * limit]


# ---------------------------------------------------------------------------
# what the source may ask TeX to read

# commands whose argument is a file name (the name is read up to the closing brace or quote)
_FILE_COMMANDS = re.compile(
    r"\\(?P<cmd>input|include|InputIfFileExists|IfFileExists|openin|XeTeXpicfile|XeTeXpdffile|"
    r"includegraphics|includepdf|includestandalone|verbatiminput|lstinputlisting|special|pdfximage|"
    r"font\\[A-Za-z@]+|usepackage|RequirePackage|documentclass|LoadClass|bibliography|addbibresource)(?![A-Za-z])"
    r"(?:\s*\d+)?\s*=?\s*(?:\[[^\]]*\]\s*)*(?P<arg>\{[^}]*\}|\"[^\"]*\"|\S+)")
_SPECIAL_FILE = re.compile(r"(pdf:\s*(image|include|fstream|bann)|psfile|PSfile|epsfile|em:\s*graph|"
                           r"dvipdfmx:config|x:fontmapfile|header\s*=)", re.IGNORECASE)


# the driver's specials that read a file, as bytes in the .xdv TeX wrote: a special built by a macro
# (\csname special\endcsname{pdf:fstream @x (/home/me/.ssh/id_rsa)}) is not in the source text, but it
# is in the .xdv, verbatim, whatever macro built it (``pdf:fstream`` embeds a file as a PDF stream and
# the driver logs nothing about it; the config options f, i and D load a font map, a config file or a
# conversion command; the others read a picture, a PDF or a PostScript file)
_DRIVER_FILE_SPECIAL = re.compile(
    rb"(pdf:\s*(?:fstream|image|img|epdf|include|mapfile|mapline)|"
    rb"dvipdfmx:\s*config\s+-?[fiD]|x:\s*font(?:mapfile|mapline)|html:\s*<\s*img|ps:\s*plotfile|"
    rb"psfile\s*=|epsfile\s*=|em:\s*graph|header\s*=)", re.IGNORECASE)


def _file_specials(xdv: Path) -> list[str]:
    """The specials in ``xdv`` that would have the driver read a file (see :data:`_DRIVER_FILE_SPECIAL`)."""
    try:
        data = xdv.read_bytes()
    except OSError:
        return []
    found = []
    for m in _DRIVER_FILE_SPECIAL.finditer(data):
        found.append(data[m.start():m.start() + 80].split(b"\0")[0].decode("latin-1"))
    return found


def check_source(source: str) -> None:
    """Refuse TeX that names a file outside its build folder; raises :class:`TemplateError`."""
    if "^^" in source:
        raise TemplateError("refusing to compile: TeX character escapes (^^) are not allowed in a write-up")
    for m in _FILE_COMMANDS.finditer(source):
        cmd, arg = m.group("cmd"), m.group("arg").strip("{}\"[] ")
        if cmd == "special":
            if _SPECIAL_FILE.search(arg):
                raise TemplateError(f"refusing to compile: \\special{{{arg[:60]}}} reads a file; "
                                    "include pictures from the build folder with \\includegraphics")
            continue
        bad = ("~" in arg or "$" in arg or arg.startswith(("/", "\\")) or ".." in arg
               or re.match(r"^[A-Za-z]:", arg) is not None or "|" in arg[:1])
        if bad:
            raise TemplateError(f"refusing to compile: \\{cmd} names {arg[:80]!r}, outside the build folder "
                                "(no ~, $, absolute or .. paths)")


@lru_cache(maxsize=1)
def _system_roots() -> tuple[str, ...]:
    """Folders TeX may read from besides its build folder: the TeX trees and the system fonts."""
    roots = {"/usr/share/texlive", "/usr/share/texmf", "/usr/share/texmf-dist", "/var/lib/texmf", "/etc/texmf",
             "/usr/share/fonts", "/usr/local/share/fonts", "/etc/fonts", "/var/cache/fontconfig",
             "/usr/local/texlive", "/opt/texlive", "/usr/share/poppler", "/usr/share/ghostscript"}
    tool = shutil.which("kpsewhich")
    if tool:
        for var in ("TEXMFROOT", "TEXMFDIST", "TEXMFMAIN", "TEXMFLOCAL", "TEXMFSYSVAR", "TEXMFSYSCONFIG"):
            try:
                out = subprocess.run([tool, f"-var-value={var}"], capture_output=True, text=True, timeout=10,
                                     env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")},
                                     stdin=subprocess.DEVNULL).stdout.strip()
            except (OSError, subprocess.SubprocessError):
                continue
            for part in re.split(r"[:;{},!]+", out):
                if part.startswith("/") and len(part) > 1:
                    roots.add(part.rstrip("/"))
    return tuple(sorted(os.path.realpath(r) for r in roots))


def _outside_of(work: Path, paths: Iterable[str]) -> list[str]:
    """The ``paths`` (as TeX or the driver saw them, relative to ``work``) that lie outside the allowed
    folders, each checked once.

    A build reads a few hundred files, most of them many times, from a few dozen folders: each folder is
    resolved once (symlinks followed) and each file's own name then only checked for being a link."""
    allowed = (os.path.realpath(work), *_system_roots())
    folders: dict[str, str] = {}
    found = []
    for path in dict.fromkeys(paths):
        head, tail = os.path.split(os.path.join(work, path))
        if tail in ("", ".", ".."):
            full = os.path.realpath(os.path.join(head, tail))
        else:
            folder = folders.get(head)
            if folder is None:
                folder = folders[head] = os.path.realpath(head)
            full = os.path.join(folder, tail)
            if os.path.islink(full):
                full = os.path.realpath(full)
        if not any(full == root or full.startswith(root + os.sep) for root in allowed):
            found.append(path)
    return found


def _foreign_reads(work: Path, driver_log: str) -> list[str]:
    """Files read outside the allowed folders: from TeX's recorder file and the driver's verbose log."""
    read: list[str] = []
    for fls in work.glob("*.fls"):
        read += [line[6:] for line in fls.read_text(encoding="utf-8", errors="replace").splitlines()
                 if line.startswith("INPUT ")]
    for m in re.finditer(r"\(Image:([^\[\)]*)\[([^\]]*)\]", driver_log):
        read += [name for name in m.groups() if name]
    for m in re.finditer(r"<(/[^<>@]*\.(?:otf|ttf|ttc|pfb|pfa|afm|tfm|vf|map|enc|cmap|sfd|cff|pfm|dfont))", driver_log):
        read.append(m.group(1))
    return sorted(set(_outside_of(work, read)))


# ---------------------------------------------------------------------------
# running TeX


def _tex_env(work: Path) -> dict[str, str]:
    """A minimal environment: the tools' PATH, a home and TeX folders inside the build folder, paranoid kpathsea."""
    home = work / ".home"
    for sub in ("", "texmf", "texmf-var", "texmf-config", "tmp", "cache"):
        (home / sub).mkdir(parents=True, exist_ok=True)
    return {
        "PATH": os.environ.get("PATH", "/usr/local/bin:/usr/bin:/bin"),
        "HOME": str(home), "TEXMFHOME": str(home / "texmf"), "TEXMFVAR": str(home / "texmf-var"),
        "TEXMFCONFIG": str(home / "texmf-config"), "TMPDIR": str(home / "tmp"), "XDG_CACHE_HOME": str(home / "cache"),
        "XDG_CONFIG_HOME": str(home / "texmf-config"), "XDG_DATA_HOME": str(home / "texmf"),
        "TEXMFOUTPUT": str(work), "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "SOURCE_DATE_EPOCH": "0",
        "FORCE_SOURCE_DATE": "1",
        "openin_any": "p", "openout_any": "p", "shell_escape": "f",
    }


def _limit(pid: int, seconds: float) -> None:
    """CPU seconds and file size limits on a started process (inherited by the processes it starts); a
    build started while a template renders (a report's next one) does not inherit the render's memory cap."""
    try:
        import resource

        from .sandbox import uncapped_address_space

        cpu = int(seconds) + 1
        resource.prlimit(pid, resource.RLIMIT_CPU, (cpu, cpu + 1))
        resource.prlimit(pid, resource.RLIMIT_FSIZE, (MAX_FILE_BYTES, MAX_FILE_BYTES))
        uncapped = uncapped_address_space()
        if uncapped is not None:
            resource.prlimit(pid, resource.RLIMIT_AS, uncapped)
    except (ImportError, AttributeError, OSError, ValueError):  # not Linux, or the process already ended
        pass


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL does not fail
        pass


_RUNNING: set[subprocess.Popen] = set()     # every build process now running, in any thread
_RUNNING_LOCK = threading.Lock()


_INTERRUPTED = threading.Event()            # set when an interrupt ended the running builds


def _kill_running() -> None:
    """End every running build's process group (an interrupt in the main thread while others build)."""
    _INTERRUPTED.set()
    with _RUNNING_LOCK:
        running = list(_RUNNING)
    for proc in running:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


@contextlib.contextmanager
def interruptible() -> Iterator[None]:
    """SIGTERM and Ctrl-C end every process of the builds and remove their folders: TeX runs in its own
    session (a Ctrl-C at the terminal does not reach it), so without this it would outlive derive.

    Wrap a pool that runs :func:`compile_tex` in threads with it, inside the pool's own ``with`` (so that
    the builds end before the pool waits for them)."""
    from ..storage.atomic import sigterm_as_interrupt

    if threading.current_thread() is threading.main_thread():
        _INTERRUPTED.clear()
    with sigterm_as_interrupt():
        try:
            yield
        except (KeyboardInterrupt, SystemExit):      # only the main thread receives these
            _kill_running()
            raise


def _run(cmd: list[str], work: Path, env: dict[str, str], deadline: float, what: str) -> subprocess.CompletedProcess:
    """Run ``cmd`` in its own process group until ``deadline``; past it, the whole group is killed."""
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        raise TemplateError(f"{what}: the build took longer than {TIMEOUT:g} s")
    proc = subprocess.Popen(cmd, cwd=work, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, errors="replace", start_new_session=True)
    with _RUNNING_LOCK:
        _RUNNING.add(proc)
    try:
        # an interrupt that ended the running builds before this one was registered: end it too (the
        # flag is set before the running builds are listed, so a build is either listed or sees it)
        if _INTERRUPTED.is_set():
            _kill_group(proc)
            raise TemplateError(f"{what}: the build was interrupted")
        _limit(proc.pid, remaining)
        try:
            out, _ = proc.communicate(timeout=remaining)
        except subprocess.TimeoutExpired:
            _kill_group(proc)
            raise TemplateError(f"{what}: the build took longer than {TIMEOUT:g} s; TeX was stopped") from None
        except BaseException:
            _kill_group(proc)
            raise
        # a process the build left behind in its group (a TeX child still running) ends with it
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        if _INTERRUPTED.is_set():      # ended by an interrupt (another thread's): not a failed build to keep
            raise TemplateError(f"{what}: the build was interrupted")
    finally:
        with _RUNNING_LOCK:
            _RUNNING.discard(proc)
    return subprocess.CompletedProcess(cmd, proc.returncode, out, "")


def _tool(name: str) -> str:
    tool = shutil.which(name)
    if tool is None:
        raise TemplateError(f"{name} is not installed; install texlive-xetex, texlive-lang-chinese and latexmk "
                            "(or ask for --format tex and compile it yourself)")
    return tool


_RERUN = re.compile(r"Rerun to get (?!/PageLabels)|Label\(s\) may have changed|Please rerun|rerun LaTeX", re.IGNORECASE)
_PAGES = re.compile(r"Output written on \S+ \((\d+) pages?")


def compile_tex(source: str, output: str | os.PathLike, *, engine: str = "xelatex") -> Path:
    """Compile LaTeX ``source`` to the PDF ``output`` with xelatex; returns its path.

    ``engine`` is ``xelatex`` (the default; ``latexmk`` is accepted and means the same).
    """
    out = Path(output)
    check_source(source)
    with interruptible():
        return _compile(source, out)


def _compile(source: str, out: Path) -> Path:
    from ..storage.atomic import atomic_path

    xelatex, driver = _tool("xelatex"), _tool("xdvipdfmx")
    deadline = time.monotonic() + TIMEOUT
    what = f"xelatex on {out.with_suffix('.tex').name}"
    with tempfile.TemporaryDirectory(prefix="derive-tex-") as tmp:
        work = Path(tmp)
        (work / "doc.tex").write_text(source, encoding="utf-8")
        env = _tex_env(work)
        cmd = [xelatex, "-no-pdf", "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", "-recorder",
               "doc.tex"]
        log = ""
        ok = False
        for _ in range(MAX_RUNS):
            proc = _run(cmd, work, env, deadline, what)
            log_path = work / "doc.log"
            log = log_path.read_text(encoding="utf-8", errors="replace") if log_path.exists() else proc.stdout
            ok = proc.returncode == 0 and (work / "doc.xdv").exists()
            if not ok or not _RERUN.search(log):
                break
        foreign = _foreign_reads(work, "")
        if foreign:
            raise TemplateError(f"refusing the PDF of {out.name}: TeX read {len(foreign)} file(s) outside its build "
                                f"folder ({foreign[0]}); nothing was written")
        pages = _PAGES.search(log)
        if ok and pages and int(pages.group(1)) > MAX_PAGES:
            raise TemplateError(f"refusing the PDF of {out.name}: {pages.group(1)} pages, more than {MAX_PAGES}")
        if not ok:
            kept = _keep_failed(work, out)
            errors = tex_errors(log) or [ln for ln in proc.stdout.splitlines() if ln.strip()][-2:]
            raise TemplateError(f"xelatex failed on {out.with_suffix('.tex').name}: {' '.join(errors)}"
                                f"{f' (see {kept})' if kept else ''}")
        specials = _file_specials(work / "doc.xdv")
        if specials:
            raise TemplateError(f"refusing the PDF of {out.name}: a \\special in it would have the driver read a "
                                f"file ({specials[0][:60]!r}); include pictures from the build folder with "
                                "\\includegraphics; nothing was written")
        drv = _run([driver, "-vv", "-o", "doc.pdf", "doc.xdv"], work, env, deadline, f"xdvipdfmx on {out.name}")
        foreign = _foreign_reads(work, drv.stdout)
        if foreign:
            raise TemplateError(f"refusing the PDF of {out.name}: it would embed {foreign[0]}, outside its build "
                                "folder; nothing was written")
        pdf = work / "doc.pdf"
        if drv.returncode != 0 or not pdf.exists():
            lines = [ln for ln in drv.stdout.splitlines() if "error" in ln.lower()][-2:]
            raise TemplateError(f"xdvipdfmx failed on {out.name}: {' '.join(lines) or 'no PDF written'}")
        with atomic_path(out, suffix=".pdf") as tmp_pdf:
            shutil.copyfile(pdf, tmp_pdf)
    return out


def compile_many(jobs: Sequence[tuple[str, str | os.PathLike]], workers: int | None = None) -> list[Path]:
    """Compile several ``(source, output)`` pairs concurrently (one xelatex per core); returns the outputs.

    Every job runs; the first failure is raised after all have finished.
    """
    from concurrent.futures import ThreadPoolExecutor

    if not jobs:
        return []
    workers = workers or max(1, min(len(jobs), os.cpu_count() or 1))
    if workers == 1 or len(jobs) == 1:
        return [compile_tex(src, path) for src, path in jobs]
    with ThreadPoolExecutor(max_workers=workers) as pool, interruptible():   # an interrupt ends the builds first
        futures = [pool.submit(compile_tex, src, path) for src, path in jobs]
        results, first_error = [], None
        for fut in futures:
            try:
                results.append(fut.result())
            except Exception as exc:  # every build finishes before the first error is raised
                first_error = first_error or exc
    if first_error is not None:
        raise first_error
    return results


def _keep_failed(work: Path, out: Path) -> str:
    """Keep the failing ``.tex`` and ``.log`` in a new folder beside the requested PDF (a name no file has);
    returns the kept log's path or ''."""
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        keep = Path(tempfile.mkdtemp(prefix=f"{out.name}.failed-", dir=out.parent))
        shutil.copyfile(work / "doc.tex", keep / f"{out.stem}.tex")
        if (work / "doc.log").exists():
            shutil.copyfile(work / "doc.log", keep / f"{out.stem}.log")
            return str(keep / f"{out.stem}.log")
        return str(keep / f"{out.stem}.tex")
    except OSError:
        return ""


def build_pdf(sol: Any, *, lang: str = "en", units: str = "si", templates: str | os.PathLike | None = None,
              output: str | os.PathLike | None = None, beamer: bool = False) -> Path:
    """Write up one solution as an article (or slides with ``beamer``) and compile it to PDF.

    Without ``output`` the PDF is ``<target>.pdf`` (``<target>.slides.pdf``) in the current folder.
    """
    from .render import render_solution

    source = render_solution(sol, "beamer" if beamer else "tex", lang=lang, units=units, templates=templates)
    out = Path(output) if output else Path(f"{sol.target}{'.slides' if beamer else ''}.pdf")
    return compile_tex(source, out)
