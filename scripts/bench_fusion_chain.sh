#!/usr/bin/env bash
# The pipeline's GPU work alone (tcfft-gpu-work-bench, device-resident frames, CUDA events) for
# the fft -> filter -> ifft chains of the streaming benchmark, five ways in the same run: real
# input kept real (R2C, the gain kernel on the half spectrum, C2R; run.real_transforms, the
# default) on the Tensor Core backend and on cuFFT FP16, and the complex form (full items, C2C)
# on the Tensor Core backend with the filter fused into the forward transform (run.fuse true)
# or as its own kernel, and on cuFFT FP16 with the gain kernel (cuFFT has no FP16 callbacks).
# Needs build/app/tcfft-gpu-work-bench and build/data/tcfft-datagen. Env: BENCH_DIR (default
# /tmp/tcfft-fusion), FUSION_MIB (input size per job, default 1024).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${BENCH_DIR:-/tmp/tcfft-fusion}
mib=${FUSION_MIB:-1024}
mkdir -p "$dir"
bench=build/app/tcfft-gpu-work-bench
gen=build/data/tcfft-datagen
samples=$((mib * 262144))
$gen series --out "$dir/series.h5" --n "$samples" --dtype float32 --rate 1000 --force >/dev/null
$gen images --out "$dir/images.h5" --count $((mib / 1)) --ny 512 --nx 512 --force >/dev/null
cat > "$dir/series.yaml" <<YAML
input: {path: $dir/series.h5, dataset: /series, segment: 1048576, rows_per_frame: 16, sample_rate: 1000}
output: {path: $dir/series_out.h5, overwrite: true}
run: {device: gpu, precision: fp16}
stages:
  - fft: {}
  - filter: {type: bandpass, low: 50, high: 200}
  - ifft: {}
  - sink: {dataset: filtered, dtype: float32}
YAML
cat > "$dir/images.yaml" <<YAML
input: {path: $dir/images.h5, dataset: /images, rows_per_frame: 64}
output: {path: $dir/images_out.h5, overwrite: true}
run: {device: gpu, precision: fp16}
stages:
  - fft: {}
  - filter: {type: lowpass, response: gaussian, cutoff: 0.1}
  - ifft: {}
  - sink: {dataset: filtered, dtype: float32}
YAML
steps=()
echo "| job (${mib} MiB float32 in) | chain | GPU work s |"
echo "|---|---|---|"
for job in series images; do
  for variant in \
      "tensor-core real (R2C, gain kernel, C2R):--set run.backend=tensor-core" \
      "tensor-core complex, fused:--set run.backend=tensor-core --set run.real_transforms=false" \
      "tensor-core complex + gain kernel:--set run.backend=tensor-core --set run.real_transforms=false --set run.fuse=false" \
      "cuFFT FP16 real (R2C, gain kernel, C2R):--set run.backend=cufft" \
      "cuFFT FP16 complex + gain kernel:--set run.backend=cufft --set run.real_transforms=false"; do
    name=${variant%%:*}
    # shellcheck disable=SC2086
    output=$($bench "$dir/$job.yaml" ${variant#*:} --repeat 5 2>&1 || true)
    line=$(grep -m1 -E "^gpu work" <<< "$output" || true)
    secs=$(sed -E 's/^gpu work[^0-9]*([0-9.]+) s.*/\1/' <<< "$line")
    echo "| $job | $name | ${secs:-n/a} |"
    steps+=("$job, $name: $(grep -m1 -E "^steps" <<< "$output" || echo "$output" | tail -3)")
  done
done
echo
echo "Steps of one full frame (ms), in enqueue order:"
printf -- "- %s\n" "${steps[@]}"
rm -rf "$dir"
