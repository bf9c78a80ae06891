import {
  Bot, Code, Database, FileText, Cpu, ShieldCheck, Layers, Workflow, Mic, MessageSquare,
  Landmark, Zap, ShoppingCart, Sprout, GraduationCap, Briefcase, Factory, HeartPulse,
  Compass, Wrench, LifeBuoy, type LucideIcon,
} from "lucide-react";

/** Icons are decoration rendered at build time as inline SVG; they carry no text. */
export const technologyIcons: Record<string, LucideIcon> = {
  agentFrameworks: Bot,
  developmentTools: Code,
  chatbots: MessageSquare,
  dataPipelines: Database,
  documentProcessing: FileText,
  foundationModels: Cpu,
  governance: ShieldCheck,
  memoryRag: Layers,
  orchestration: Workflow,
  voice: Mic,
};

export const sectorIcons: Record<string, LucideIcon> = {
  financialServices: Landmark,
  energy: Zap,
  retail: ShoppingCart,
  agriculture: Sprout,
  education: GraduationCap,
  professional: Briefcase,
  manufacturing: Factory,
  healthcare: HeartPulse,
};

export const serviceLineIcons: Record<string, LucideIcon> = {
  advisory: Compass,
  implementation: Wrench,
  managed: LifeBuoy,
};
