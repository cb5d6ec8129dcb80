#!/usr/bin/env bash
# Shared by the end-to-end suites: a busybox image made offline from Debian's busybox-static,
# as a root filesystem directory, an OCI image layout archive (what `ctr images import`
# and `podman load` read) or a docker-archive (what `docker load` reads). Sourced.

# A busybox rootfs with the users the exec cases switch to.
e2e_busybox_rootfs() { # DIR
	local r=$1 applet
	mkdir -p "$r/bin" "$r/etc" "$r/tmp" "$r/root" "$r/proc" "$r/sys" "$r/dev" "$r/run" "$r/data"
	chmod 1777 "$r/tmp"
	cp /bin/busybox "$r/bin/busybox" || return 1
	for applet in $(/bin/busybox --list); do
		[ "$applet" = busybox ] || ln -s busybox "$r/bin/$applet"
	done
	printf 'root:x:0:0:root:/root:/bin/sh\nuser:x:1000:1000:user:/tmp:/bin/sh\n' >"$r/etc/passwd"
	printf 'root:x:0:\nuser:x:1000:\n' >"$r/etc/group"
	echo "from the image" >"$r/data/image-file"
}

# A reproducible tar: sorted names, no times, owners as numbers.
e2e_tar() { # DIR OUT
	tar -C "$1" --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -cf "$2" .
}

# The image config of a one-layer image whose layer has DIFF_ID; PROCESS is its "config"
# object (busybox's shell by default).
e2e_image_config() { # DIFF_ID [PROCESS]
	local process=${2:-'{"Env":["PATH=/bin"],"Cmd":["sh"],"WorkingDir":"/"}'}
	printf '{"architecture":"amd64","os":"linux","config":%s,"rootfs":{"type":"layers","diff_ids":["%s"]}}' \
		"$process" "$1"
}

# Moves FILE into the layout's blob store under its sha256; prints "DIGEST SIZE".
e2e_oci_blob() { # LAYOUT FILE
	local hex size
	hex=$(sha256sum "$2" | cut -d' ' -f1) || return 1
	size=$(stat -c %s "$2")
	mv "$2" "$1/blobs/sha256/$hex" && echo "sha256:$hex $size"
}

# An OCI image layout archive of one uncompressed layer holding ROOTFS, tagged NAME
# (image-spec: layer tar -> config with its diff_id -> manifest -> index.json); PROCESS as
# e2e_image_config takes it.
e2e_busybox_oci_archive() { # ROOTFS WORKDIR OUT NAME [PROCESS]
	local rootfs=$1 work=$2 out=$3 name=$4 layer config manifest
	local layout=$work/layout
	mkdir -p "$layout/blobs/sha256" || return 1
	e2e_tar "$rootfs" "$work/layer.tar" || return 1
	read -r layer layer_size < <(e2e_oci_blob "$layout" "$work/layer.tar")
	e2e_image_config "$layer" "${5:-}" >"$work/config.json"
	read -r config config_size < <(e2e_oci_blob "$layout" "$work/config.json")
	printf '{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json","config":{"mediaType":"application/vnd.oci.image.config.v1+json","digest":"%s","size":%s},"layers":[{"mediaType":"application/vnd.oci.image.layer.v1.tar","digest":"%s","size":%s}]}' \
		"$config" "$config_size" "$layer" "$layer_size" >"$work/manifest.json"
	read -r manifest manifest_size < <(e2e_oci_blob "$layout" "$work/manifest.json")
	printf '{"schemaVersion":2,"manifests":[{"mediaType":"application/vnd.oci.image.manifest.v1+json","digest":"%s","size":%s,"platform":{"architecture":"amd64","os":"linux"},"annotations":{"io.containerd.image.name":"%s","org.opencontainers.image.ref.name":"%s"}}]}' \
		"$manifest" "$manifest_size" "$name" "${name##*:}" >"$layout/index.json"
	echo '{"imageLayoutVersion":"1.0.0"}' >"$layout/oci-layout"
	e2e_tar "$layout" "$out"
}

# Writes a docker-archive (what `docker save` writes and `docker load` reads) of ROOTFS as
# one layer tagged NAME: <layer>/layer.tar, the image config, manifest.json, repositories.
e2e_busybox_docker_archive() { # ROOTFS WORKDIR OUT NAME
	local rootfs=$1 work=$2 out=$3 name=$4 layer config dir=$2/archive
	mkdir -p "$dir" || return 1
	e2e_tar "$rootfs" "$work/layer.tar" || return 1
	layer=$(sha256sum "$work/layer.tar" | cut -d' ' -f1)
	mkdir -p "$dir/$layer" && mv "$work/layer.tar" "$dir/$layer/layer.tar" || return 1
	e2e_image_config "sha256:$layer" >"$work/config.json"
	config=$(sha256sum "$work/config.json" | cut -d' ' -f1)
	mv "$work/config.json" "$dir/$config.json" || return 1
	printf '[{"Config":"%s.json","RepoTags":["%s"],"Layers":["%s/layer.tar"]}]' \
		"$config" "$name" "$layer" >"$dir/manifest.json"
	printf '{"%s":{"%s":"%s"}}' "${name%%:*}" "${name##*:}" "$layer" >"$dir/repositories"
	e2e_tar "$dir" "$out"
}
