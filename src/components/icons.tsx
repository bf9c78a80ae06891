// Each icon's drawing from its own lucide module: importing the package root makes esbuild read all of
// lucide's ~1,700 icon files (about 400 ms of every cold build) to keep the few we use. The drawing
// (`__iconData`, which lucide's own component is made from) is rendered by the small component below
// instead of lucide's: theirs rebuilds and merges its attribute set on every use (options we never
// pass), about 10 ms of a first build's rendering, and the markup is the same.
import { createElement, type ReactElement } from "react";
import * as BotModule from "lucide-react/icons/bot";
import * as CodeModule from "lucide-react/icons/code";
import * as DatabaseModule from "lucide-react/icons/database";
import * as FileTextModule from "lucide-react/icons/file-text";
import * as CpuModule from "lucide-react/icons/cpu";
import * as ShieldCheckModule from "lucide-react/icons/shield-check";
import * as LayersModule from "lucide-react/icons/layers";
import * as WorkflowModule from "lucide-react/icons/workflow";
import * as MicModule from "lucide-react/icons/mic";
import * as MessageSquareModule from "lucide-react/icons/message-square";
import * as LandmarkModule from "lucide-react/icons/landmark";
import * as ZapModule from "lucide-react/icons/zap";
import * as ShoppingCartModule from "lucide-react/icons/shopping-cart";
import * as SproutModule from "lucide-react/icons/sprout";
import * as GraduationCapModule from "lucide-react/icons/graduation-cap";
import * as BriefcaseModule from "lucide-react/icons/briefcase";
import * as FactoryModule from "lucide-react/icons/factory";
import * as HeartPulseModule from "lucide-react/icons/heart-pulse";
import * as CompassModule from "lucide-react/icons/compass";
import * as WrenchModule from "lucide-react/icons/wrench";
import * as LifeBuoyModule from "lucide-react/icons/life-buoy";
import * as MailModule from "lucide-react/icons/mail";
import * as MapPinModule from "lucide-react/icons/map-pin";
import * as GlobeModule from "lucide-react/icons/globe";
import * as MenuModule from "lucide-react/icons/menu";
import * as ArrowRightModule from "lucide-react/icons/arrow-right";
import * as ClockModule from "lucide-react/icons/clock";

/** A lucide drawing: its name and former names (for the `lucide-<name>` classes) and its elements. */
interface IconData {
  name: string;
  aliases?: string[];
  node: [tag: string, attributes: Record<string, string>][];
}

export interface IconProps {
  /** Width and height in pixels (lucide's default: 24). */
  size?: number;
  className?: string;
}

export type Icon = (props: IconProps) => ReactElement;

/**
 * Icons are decoration rendered at build time as inline SVG: they carry no text and are hidden from
 * assistive technology. Same markup as lucide-react's component with these props (its attribute order included).
 */
function icon(module: unknown): Icon {
  // lucide's type declarations for single icons name only the component; the data is exported beside it.
  const data = (module as { __iconData: IconData }).__iconData;
  const classes = ["lucide", ...[data.name, ...(data.aliases ?? [])].map((name) => `lucide-${name}`)].join(" ");
  const children = data.node.map(([tag, attributes]) => createElement(tag, attributes));
  return function LucideIcon({ size = 24, className }: IconProps) {
    return (
      <svg
        xmlns="http://www.w3.org/2000/svg"
        width={size}
        height={size}
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth={2}
        strokeLinecap="round"
        strokeLinejoin="round"
        className={className ? `${classes} ${className}` : classes}
        aria-hidden="true"
      >
        {children}
      </svg>
    );
  };
}

const Bot = icon(BotModule);
const Code = icon(CodeModule);
const Database = icon(DatabaseModule);
const FileText = icon(FileTextModule);
const Cpu = icon(CpuModule);
const ShieldCheck = icon(ShieldCheckModule);
const Layers = icon(LayersModule);
const Workflow = icon(WorkflowModule);
const Mic = icon(MicModule);
const MessageSquare = icon(MessageSquareModule);
const Landmark = icon(LandmarkModule);
const Zap = icon(ZapModule);
const ShoppingCart = icon(ShoppingCartModule);
const Sprout = icon(SproutModule);
const GraduationCap = icon(GraduationCapModule);
const Briefcase = icon(BriefcaseModule);
const Factory = icon(FactoryModule);
const HeartPulse = icon(HeartPulseModule);
const Compass = icon(CompassModule);
const Wrench = icon(WrenchModule);
const LifeBuoy = icon(LifeBuoyModule);
const Mail = icon(MailModule);
const MapPin = icon(MapPinModule);
const Globe = icon(GlobeModule);
const Menu = icon(MenuModule);
const ArrowRight = icon(ArrowRightModule);
const Clock = icon(ClockModule);

/** The icons used by components and pages, by their lucide name. */
export { Mail, MapPin, Globe, Menu, ArrowRight, Clock };

export const technologyIcons: Record<string, Icon> = {
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

export const sectorIcons: Record<string, Icon> = {
  financialServices: Landmark,
  energy: Zap,
  retail: ShoppingCart,
  agriculture: Sprout,
  education: GraduationCap,
  professional: Briefcase,
  manufacturing: Factory,
  healthcare: HeartPulse,
};

export const serviceLineIcons: Record<string, Icon> = {
  advisory: Compass,
  implementation: Wrench,
  managed: LifeBuoy,
};
