# bash completion for tracenav: its options (tracenav --<Tab>), the files
# and directories its options take, then a trace directory.

_tracenav()
{
	local cur prev options
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD - 1]}
	# --option=VALUE: bash splits the word at the '='.
	if [ "$cur" = = ]; then
		cur=
	elif [ "$prev" = = ] && [ "$COMP_CWORD" -ge 2 ]; then
		prev=${COMP_WORDS[COMP_CWORD - 2]}
	fi
	case $prev in
	--batch-file|--seq-rules|--symbols|--sync)
		COMPREPLY=($(compgen -f -- "$cur"))
		return
		;;
	--cache-dir|--plugin-path|--live-dir)
		COMPREPLY=($(compgen -d -- "$cur"))
		return
		;;
	--component)
		COMPREPLY=($(compgen -W "src.text.dmesg" -- "$cur"))
		return
		;;
	-c|--batch|-b|--begin|-e|--end|-n|--count|--params)
		COMPREPLY=()
		return
		;;
	esac
	case $cur in
	-*)
		options="--ascii --batch --batch-file --begin --bt-muxer
			--cache-dir --component --count --dump --end --follow
			--gmt --help --info --keep-going --live-dir --no-cache
			--no-index --no-mouse --no-seq-index --params --plugin-path
			--seq-rules --symbols --sync --verbose --version"
		COMPREPLY=($(compgen -W "$options" -- "$cur"))
		;;
	*)
		# A trace is a directory (or a live URL, typed out).
		COMPREPLY=($(compgen -d -- "$cur"))
		;;
	esac
}
complete -o filenames -F _tracenav tracenav
