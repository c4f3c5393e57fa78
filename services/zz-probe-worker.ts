import { readYaml } from "./simulator/config/load/yaml-source.js";
export default function (text: string) { return readYaml(text).errors.length; }
