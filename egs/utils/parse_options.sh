# shellcheck shell=bash
# parse_options.sh: Kaldi-style option parsing for recipe scripts; source it
# after setting the defaults:
#
#   stage=0; nj=2
#   . utils/parse_options.sh
#
# Each "--some-name VALUE" or "--some-name=VALUE" before the positional
# arguments sets the shell variable some_name, which must already be set (so
# a misspelt option is an error). "--config FILE" sources FILE first; "--help"
# or "-h" prints $help_message and exits 0. Parsing stops at the first
# argument not starting with "--" (the positional arguments stay in $@).
while true; do
  [ -z "${1:-}" ] && break
  case "$1" in
    --help|-h)
      if [ -z "${help_message:-}" ]; then echo "No help found." >&2
      else printf "%s\n" "$help_message" >&2; fi
      exit 0 ;;
    --*=*)
      __name=$(echo "$1" | sed 's/^--//; s/=.*//; s/-/_/g')
      __value=${1#*=}
      shift ;;
    --*)
      __name=$(echo "$1" | sed 's/^--//; s/-/_/g')
      if [ $# -lt 2 ]; then
        echo "$0: option $1 needs a value" >&2; exit 1
      fi
      __value=$2
      shift 2 ;;
    *) break ;;
  esac
  if [ "$__name" = config ]; then
    [ -f "$__value" ] || { echo "$0: no such config file $__value" >&2; exit 1; }
    # shellcheck disable=SC1090
    . "$__value"
    continue
  fi
  if ! eval "[ -n \"\${$__name+x}\" ]"; then
    echo "$0: invalid option --$(echo "$__name" | sed 's/_/-/g')" >&2; exit 1
  fi
  # Booleans are written true/false, as Kaldi scripts expect.
  __old=$(eval "echo \"\$$__name\"")
  if [ "$__old" = true ] || [ "$__old" = false ]; then
    case "$__value" in
      true|false) ;;
      *) echo "$0: option --$(echo "$__name" | sed 's/_/-/g') expects true or false, got '$__value'" >&2; exit 1 ;;
    esac
  fi
  printf -v "$__name" '%s' "$__value"
done
unset __name __value __old
true
