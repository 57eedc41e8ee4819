#!/usr/bin/env bash
# int2sym.sh: replaces integer ids by their symbols (a words.txt or
# phones.txt table, "symbol id" per line) in some fields of each line.
#
#   int2sym.sh [-f FIELDS] <symbol-table> [<file>...] > out
#     -f 2-   fields 2 to the end (a transcript after its key); also N, N-M
#
# Without -f every field is mapped. Fields are written each followed by one
# space ("u1 a bb \n"). An id the table lacks is an error: the line and the
# id are printed and the exit status is 1.
set -o pipefail
fields=""
if [ "${1:-}" = -f ]; then fields=$2; shift 2; fi
if [ $# -lt 1 ]; then
  echo "Usage: $0 [-f FIELDS] <symbol-table> [<file>...]" >&2; exit 1
fi
symtab=$1; shift
[ -r "$symtab" ] || { echo "$0: cannot read the symbol table $symtab" >&2; exit 1; }
first=1; last=0  # last 0: to the end of the line
case "$fields" in
  "") ;;
  *-*) first=${fields%-*}; last=${fields#*-}; [ -z "$first" ] && first=1
       [ -z "$last" ] && last=0 ;;
  *) first=$fields; last=$fields ;;
esac
exec awk -v first="$first" -v last="$last" -v table="$symtab" '
  FILENAME == table { symbol[$2] = $1; next }
  {
    # Each field followed by one space, as in the output of int2sym.pl.
    line = ""
    for (i = 1; i <= NF; i++) {
      if (i >= first && (last == 0 || i <= last)) {
        if (!($i in symbol)) {
          printf("int2sym.sh: id %s (field %d of line %d) is not in %s\n",
                 $i, i, FNR, table) > "/dev/stderr"
          exit 1
        }
        $i = symbol[$i]
      }
      line = line $i " "
    }
    print line
  }' "$symtab" "${@:--}"
