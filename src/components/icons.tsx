// Each icon from its own module: importing the package root makes esbuild read all of lucide's ~1,700
// icon files (about 400 ms of every cold build) to keep the few we use.
import type { LucideIcon } from "lucide-react";
import Bot from "lucide-react/icons/bot";
import Code from "lucide-react/icons/code";
import Database from "lucide-react/icons/database";
import FileText from "lucide-react/icons/file-text";
import Cpu from "lucide-react/icons/cpu";
import ShieldCheck from "lucide-react/icons/shield-check";
import Layers from "lucide-react/icons/layers";
import Workflow from "lucide-react/icons/workflow";
import Mic from "lucide-react/icons/mic";
import MessageSquare from "lucide-react/icons/message-square";
import Landmark from "lucide-react/icons/landmark";
import Zap from "lucide-react/icons/zap";
import ShoppingCart from "lucide-react/icons/shopping-cart";
import Sprout from "lucide-react/icons/sprout";
import GraduationCap from "lucide-react/icons/graduation-cap";
import Briefcase from "lucide-react/icons/briefcase";
import Factory from "lucide-react/icons/factory";
import HeartPulse from "lucide-react/icons/heart-pulse";
import Compass from "lucide-react/icons/compass";
import Wrench from "lucide-react/icons/wrench";
import LifeBuoy from "lucide-react/icons/life-buoy";
import Mail from "lucide-react/icons/mail";
import MapPin from "lucide-react/icons/map-pin";
import Globe from "lucide-react/icons/globe";
import Menu from "lucide-react/icons/menu";
import ArrowRight from "lucide-react/icons/arrow-right";
import Clock from "lucide-react/icons/clock";

/** The icons used by components and pages, by their lucide name. */
export { Mail, MapPin, Globe, Menu, ArrowRight, Clock };

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
