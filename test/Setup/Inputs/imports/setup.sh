packages=(cmake python3 python3-yaml)
