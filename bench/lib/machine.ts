import os from "node:os";

export interface MachineInfo {
  cpuModel: string;
  cores: number;
  totalMemoryBytes: number;
  totalMemoryGiB: number;
  nodeVersion: string;
  platform: string;
  date: string;
  /** 1-minute load average when the bench started: above the core count, other work shared the machine. */
  loadAverage1mAtStart: number;
}

export function machineInfo(): MachineInfo {
  const cpus = os.cpus();
  return {
    cpuModel: cpus[0]?.model.trim() ?? "unknown",
    cores: os.availableParallelism?.() ?? cpus.length,
    totalMemoryBytes: os.totalmem(),
    totalMemoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    nodeVersion: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    date: new Date().toISOString(),
    loadAverage1mAtStart: Math.round((os.loadavg()[0] ?? 0) * 100) / 100,
  };
}
