import { CompletionsFeature } from './completions';
import { ElicitationFeature } from './elicitation';
import type { FeatureContext, SessionFeature } from './feature';
import { HealthFeature } from './health';
import { LoggingFeature } from './logging';
import { PromptsFeature } from './prompts';
import { ResourcesFeature } from './resources';
import { RootsFeature } from './roots';
import { SamplingFeature } from './sampling';
import { SkillsFeature } from './skills';
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
  /** What the server asks of the host: sampling, elicitation, roots (client capabilities and handlers). */
  readonly sampling: SamplingFeature;
  readonly elicitation: ElicitationFeature;
  readonly roots: RootsFeature;
  /** The Skills extension (`io.modelcontextprotocol/skills`). */
  readonly skills: SkillsFeature;
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
  const sampling = new SamplingFeature(context);
  const elicitation = new ElicitationFeature(context);
  const roots = new RootsFeature(context);
  const skills = new SkillsFeature(context);
  // MCP Apps: a tool's UI resource is read again when the server says its resources changed.
  resources.onServerChange((uri) => tools.appsChanged(uri));
  // Skills: a changed catalog is announced as `resources/list_changed`, whose handler is ResourcesFeature's.
  resources.onServerChange((uri) => {
    if (uri === undefined) skills.refresh();
  });
  return {
    tools,
    resources,
    prompts,
    completions,
    logging,
    tasks,
    health,
    sampling,
    elicitation,
    roots,
    skills,
    all: [tools, resources, prompts, completions, logging, tasks, health, sampling, elicitation, roots, skills],
  };
}
