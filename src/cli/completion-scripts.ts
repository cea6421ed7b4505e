// The scripts `tickbook completion SHELL` prints. Each asks `tickbook __complete` for the words
// that complete the one under the cursor (complete.ts decides), and lets the shell complete file
// names when the answer is the line ":files".

const BASH = `# tickbook completion for bash. Load it in ~/.bashrc:  source <(tickbook completion bash)
# or save it as ~/.local/share/bash-completion/completions/tickbook
_tickbook() {
  local cur=\${COMP_WORDS[COMP_CWORD]} out
  out=$(tickbook __complete "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null) || return
  if [[ $out == ":files" ]]; then
    compopt -o filenames 2>/dev/null
    mapfile -t COMPREPLY < <(compgen -f -- "$cur")
  elif [[ -n $out ]]; then
    # Each quoted as a word: a watchlist may be named "My List".
    local line
    COMPREPLY=()
    while IFS= read -r line; do COMPREPLY+=("$(printf '%q' "$line")"); done <<< "$out"
  else
    COMPREPLY=()
  fi
}
complete -F _tickbook tickbook
`;

const ZSH = `#compdef tickbook
# tickbook completion for zsh. Save it as _tickbook in a directory of $fpath, or load it in
# ~/.zshrc after compinit:  source <(tickbook completion zsh)
_tickbook() {
  local out
  out=$(tickbook __complete "\${(@)words[2,CURRENT]}" 2>/dev/null) || return 1
  [[ -n $out ]] || return 1
  if [[ $out == ":files" ]]; then
    _files
  else
    local -a candidates
    candidates=("\${(@f)out}")
    compadd -a candidates
  fi
}
if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
  _tickbook "$@"
else
  compdef _tickbook tickbook
fi
`;

const FISH = `# tickbook completion for fish. Save it as ~/.config/fish/completions/tickbook.fish
function __tickbook_complete
    set -l words (commandline -opc)[2..-1] (commandline -ct)
    set -l out (tickbook __complete $words 2>/dev/null)
    if test "$out" = ":files"
        __fish_complete_path (commandline -ct)
    else
        printf '%s\\n' $out
    end
end
complete -c tickbook -f -a '(__tickbook_complete)'
`;

export const COMPLETION_SCRIPTS: Readonly<Record<string, string>> = { bash: BASH, zsh: ZSH, fish: FISH };
