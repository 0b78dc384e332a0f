import type { NvidiaSmiTopology } from '../topology/host-gpu';
import type { TimeWindow } from '../timeline/timeline-index';
import { hostGpuTopology, hostGpuValues, type HostGpuTopology } from '../topology/host-gpu';
import type { TopologyValues } from '../topology/topology';
import type { DmvIndex } from './dmv-index';
import { communicationMatrix } from './matrix';

/** DMV's hardware view data: the host–GPU topology and what it did in a window. */
export interface HardwareView extends HostGpuTopology {
  utilisation: TopologyValues;
  traffic: TopologyValues;
}

/** The host–GPU topology of a trace (its `deviceProperties`, streams and copies, plus `nvidia-smi topo -m` when given). */
export function traceHostGpuTopology(index: DmvIndex, topology?: NvidiaSmiTopology | null): HostGpuTopology {
  return hostGpuTopology({
    deviceProperties: index.profile.metadata['deviceProperties'],
    topology: topology ?? null,
    devices: index.devices,
    source: index.profile.path,
  });
}

/**
 * Utilisation in the window: the host as the mean busy share of its CPU tracks (runtime or CPU work),
 * each GPU as the busy share of the union of its streams (copies and kernels); traffic as the bytes
 * the window's copies moved over each link (both directions).
 */
export function hardwareView(
  index: DmvIndex,
  window: TimeWindow,
  topology?: NvidiaSmiTopology | null,
  base: HostGpuTopology = traceHostGpuTopology(index, topology),
): HardwareView {
  const len = window.end - window.start;
  const matrix = communicationMatrix(index, { window });
  const n = matrix.devices.length;
  const at = new Map(matrix.devices.map((d, i) => [d, i]));
  const cellBytes = (a: number, b: number) => {
    const i = at.get(a),
      j = at.get(b);
    return i === undefined || j === undefined ? 0 : matrix.cells[i * n + j]!.bytes;
  };
  const hostLanes = index.hostBusy.activeLanes;
  const values = hostGpuValues(base, {
    host: len > 0 && hostLanes > 0 ? index.hostBusy.covered(window.start, window.end) / (len * hostLanes) : 0,
    gpu: device => {
      const lane = index.deviceLane.get(device);
      if (lane === undefined) return NaN;
      return len > 0 ? index.deviceBusy.coveredOnLane(lane, window.start, window.end) / len : 0;
    },
    bytes: (a, b) => cellBytes(a, b) + (a === b ? 0 : cellBytes(b, a)),
  });
  return { ...base, ...values };
}
