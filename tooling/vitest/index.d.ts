import type { UserWorkspaceConfig } from "vitest/config"
export declare const packageProject: (configUrl: string, overrides?: UserWorkspaceConfig["test"]) => UserWorkspaceConfig
