# A build dir configured from another checkout (the tree was moved or copied)
# holds a CMakeCache.txt whose source dir is the old path; CMake then refuses
# to configure. Sourced by build.sh.

# Succeeds when build dir $1 has a cache made for a source dir other than $2.
cmake_cache_is_stale() {
  local cache="$1/CMakeCache.txt" source_dir cached
  [[ -f $cache ]] || return 1
  source_dir=$(cd "$2" && pwd -P)
  cached=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$cache")
  [[ -n $cached && $(cd "$cached" 2>/dev/null && pwd -P) != "$source_dir" ]]
}

# Removes build dir $1 when its cache belongs to another source dir.
drop_stale_cmake_cache() {
  if cmake_cache_is_stale "$1" "$2"; then
    echo "build: $1 was configured for $(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$1/CMakeCache.txt"); configuring again for $(cd "$2" && pwd -P)"
    rm -rf "$1"
  fi
}
