import { CompletionsFeature } from './completions';
import type { FeatureContext, SessionFeature } from './feature';
import { HealthFeature } from './health';
import { LoggingFeature } from './logging';
import { PromptsFeature } from './prompts';
import { ResourcesFeature } from './resources';
import { TasksFeature } from './tasks';
import { ToolsFeature } from './tools';

/** One of each feature module, for one server. A new feature is added here (and to `all`, in creation order). */
export interface ServerFeatures {
  readonly tools: ToolsFeature;
  readonly resources: ResourcesFeature;
  readonly prompts: PromptsFeature;
  readonly completions: CompletionsFeature;
  readonly logging: LoggingFeature;
  readonly tasks: TasksFeature;
  readonly health: HealthFeature;
  /** Every module, in creation order (disposed in reverse). */
  readonly all: readonly SessionFeature[];
}

export function createFeatures(context: FeatureContext): ServerFeatures {
  const tools = new ToolsFeature(context);
  const resources = new ResourcesFeature(context);
  const prompts = new PromptsFeature(context);
  const completions = new CompletionsFeature(context);
  const logging = new LoggingFeature(context);
  const tasks = new TasksFeature(context);
  const health = new HealthFeature(context);
  return { tools, resources, prompts, completions, logging, tasks, health, all: [tools, resources, prompts, completions, logging, tasks, health] };
}
