// lucide's icons, each from its own module ("lucide-react/icons/<name>", a public export of the package):
// importing the package root would make esbuild read all of lucide's icon files to keep the few we use.
import type { ComponentType, ReactElement, SVGProps } from "react";
import LucideBot from "lucide-react/icons/bot";
import LucideCode from "lucide-react/icons/code";
import LucideDatabase from "lucide-react/icons/database";
import LucideFileText from "lucide-react/icons/file-text";
import LucideCpu from "lucide-react/icons/cpu";
import LucideShieldCheck from "lucide-react/icons/shield-check";
import LucideLayers from "lucide-react/icons/layers";
import LucideWorkflow from "lucide-react/icons/workflow";
import LucideMic from "lucide-react/icons/mic";
import LucideMessageSquare from "lucide-react/icons/message-square";
import LucideLandmark from "lucide-react/icons/landmark";
import LucideZap from "lucide-react/icons/zap";
import LucideShoppingCart from "lucide-react/icons/shopping-cart";
import LucideSprout from "lucide-react/icons/sprout";
import LucideGraduationCap from "lucide-react/icons/graduation-cap";
import LucideBriefcase from "lucide-react/icons/briefcase";
import LucideFactory from "lucide-react/icons/factory";
import LucideHeartPulse from "lucide-react/icons/heart-pulse";
import LucideCompass from "lucide-react/icons/compass";
import LucideWrench from "lucide-react/icons/wrench";
import LucideLifeBuoy from "lucide-react/icons/life-buoy";
import LucideMail from "lucide-react/icons/mail";
import LucideMapPin from "lucide-react/icons/map-pin";
import LucideGlobe from "lucide-react/icons/globe";
import LucideMenu from "lucide-react/icons/menu";
import LucideArrowRight from "lucide-react/icons/arrow-right";
import LucideClock from "lucide-react/icons/clock";
import LucidePhone from "lucide-react/icons/phone";
import LucideBuilding from "lucide-react/icons/building-2";
import LucideCalendarCheck from "lucide-react/icons/calendar-check";
import LucideExternalLink from "lucide-react/icons/external-link";

export interface IconProps {
  /** Width and height in pixels (lucide's default: 24). */
  size?: number;
  className?: string;
}

export type Icon = (props: IconProps) => ReactElement;

type LucideComponent = ComponentType<SVGProps<SVGSVGElement> & { size?: number }>;

/**
 * Icons are decoration rendered at build time as inline SVG: they carry no text and are hidden from
 * assistive technology.
 */
function icon(name: string, Lucide: LucideComponent): Icon {
  return function IconSvg({ size = 24, className }: IconProps) {
    return <Lucide size={size} className={className} aria-hidden="true" />;
  };
}

const Bot = icon("Bot", LucideBot as LucideComponent);
const Code = icon("Code", LucideCode as LucideComponent);
const Database = icon("Database", LucideDatabase as LucideComponent);
const FileText = icon("FileText", LucideFileText as LucideComponent);
const Cpu = icon("Cpu", LucideCpu as LucideComponent);
const ShieldCheck = icon("ShieldCheck", LucideShieldCheck as LucideComponent);
const Layers = icon("Layers", LucideLayers as LucideComponent);
const Workflow = icon("Workflow", LucideWorkflow as LucideComponent);
const Mic = icon("Mic", LucideMic as LucideComponent);
const MessageSquare = icon("MessageSquare", LucideMessageSquare as LucideComponent);
const Landmark = icon("Landmark", LucideLandmark as LucideComponent);
const Zap = icon("Zap", LucideZap as LucideComponent);
const ShoppingCart = icon("ShoppingCart", LucideShoppingCart as LucideComponent);
const Sprout = icon("Sprout", LucideSprout as LucideComponent);
const GraduationCap = icon("GraduationCap", LucideGraduationCap as LucideComponent);
const Briefcase = icon("Briefcase", LucideBriefcase as LucideComponent);
const Factory = icon("Factory", LucideFactory as LucideComponent);
const HeartPulse = icon("HeartPulse", LucideHeartPulse as LucideComponent);
const Compass = icon("Compass", LucideCompass as LucideComponent);
const Wrench = icon("Wrench", LucideWrench as LucideComponent);
const LifeBuoy = icon("LifeBuoy", LucideLifeBuoy as LucideComponent);
const Mail = icon("Mail", LucideMail as LucideComponent);
const MapPin = icon("MapPin", LucideMapPin as LucideComponent);
const Globe = icon("Globe", LucideGlobe as LucideComponent);
const Menu = icon("Menu", LucideMenu as LucideComponent);
const ArrowRight = icon("ArrowRight", LucideArrowRight as LucideComponent);
const Clock = icon("Clock", LucideClock as LucideComponent);
const Phone = icon("Phone", LucidePhone as LucideComponent);
const Building = icon("Building", LucideBuilding as LucideComponent);
const CalendarCheck = icon("CalendarCheck", LucideCalendarCheck as LucideComponent);
const ExternalLink = icon("ExternalLink", LucideExternalLink as LucideComponent);

/** The icons used by components and pages, by their lucide name. */
export { Mail, MapPin, Globe, Menu, ArrowRight, Clock, Phone, Building, CalendarCheck, ExternalLink };

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
