"""``python -m derive._compiled_templates``: compile the built-in templates again, after editing one."""

from derive._precompile import generate, write
from derive.render import environment_for

if __name__ == "__main__":
    folder = write(generate(environment_for))
    print(f"wrote the built-in templates' code to {folder}")
