/**
 * Whether this machine could have a hardware GPU adapter at all, asked
 * without starting Dawn. On Linux every GPU a Vulkan driver drives has a
 * device node: /dev/dri/renderD* (Mesa: AMD, Intel, virtio), /dev/nvidia0…
 * (NVIDIA), /dev/dxg (WSL). With none of them, Dawn can find only a software
 * adapter (lavapipe), which `--backend auto` passes over anyway; starting
 * Dawn just to learn that costs a second and prints warnings from native
 * code that no JavaScript can catch (the "artificially reduced" lines, or
 * "vkCreateInstance: Found no drivers!" where the loader has no driver).
 * Other systems: assumed possible (Dawn is asked).
 */
import { readdirSync } from 'node:fs';

function entries(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** Why no hardware adapter can exist here, or undefined when one may. */
export function noGpuDeviceReason(
  platform: string = process.platform,
  list: (dir: string) => string[] = entries,
): string | undefined {
  if (platform !== 'linux') return undefined;
  const dri = list('/dev/dri').filter((name) => /^(renderD|card)\d+$/.test(name));
  const dev = list('/dev').filter((name) => /^(nvidia\d+|dxg|kfd)$/.test(name));
  if (dri.length > 0 || dev.length > 0) return undefined;
  return (
    'not started: no GPU device (/dev/dri/renderD*, /dev/nvidia*, /dev/dxg), so only a software adapter could be ' +
    'found; --backend webgpu uses one'
  );
}
