#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install the Debian packages listed in .ci/packages that are missing.
# Runs apt-get only when something is missing; needs root then.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
mapfile -t want < <(grep -v -e '^#' -e '^$' "$top/.ci/packages")
missing=()
for p in "${want[@]}"; do
	case "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" in
	*" ok installed") ;;
	*) missing+=("$p") ;;
	esac
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "setup: missing packages: ${missing[*]}" >&2
	echo "setup: run as root, or: apt-get install ${missing[*]}" >&2
	exit 1
fi
echo "setup: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
# Wait for another apt/dpkg (unattended-upgrades, a second make) rather
# than fail on its lock.
lock=(-o DPkg::Lock::Timeout=900)
apt-get "${lock[@]}" update -q >/dev/null
apt-get "${lock[@]}" install -y -q --no-install-recommends "${missing[@]}" >/dev/null
