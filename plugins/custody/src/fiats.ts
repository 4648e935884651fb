/**
 * The fixed fiat list (spec 1 §3 "Fiat currency list"): ISO 4217 codes with the countries (ISO 3166
 * alpha-2) that use them, the country first that stands for the currency. Current codes first, then
 * the older ones some providers and countries still quote; a country takes the first currency that
 * names it. Shared by the ramp plugin (its fiat rules) and any screen choosing a fiat (settings).
 */
const TABLE =
  "USD:US,EC,SV,PA,PR,TL,FM,MH,PW,VG,TC,BQ,AS,GU,MP,VI,UM,IO EUR:DE,FR,IT,ES,NL,BE,AT,PT,IE,FI,GR,SK,SI,LT,LV,EE,LU,MT,CY,HR,MC,SM,VA,AD,ME,XK,GP,MQ,GF,RE,YT,PM,BL,MF,AX,TF " +
  "GBP:GB RUB:RU UAH:UA KZT:KZ UZS:UZ BYN:BY TRY:TR INR:IN IDR:ID BRL:BR ARS:AR AED:AE AZN:AZ AMD:AM GEL:GE KGS:KG TJS:TJ MDL:MD " +
  "PLN:PL CZK:CZ CHF:CH,LI SEK:SE NOK:NO,SJ,BV DKK:DK,GL,FO HUF:HU RON:RO BGN:BG ILS:IL,PS JPY:JP CNY:CN KRW:KR HKD:HK SGD:SG THB:TH " +
  "VND:VN MYR:MY PHP:PH NGN:NG KES:KE EGP:EG ZAR:ZA MXN:MX COP:CO CLP:CL PEN:PE CAD:CA AUD:AU,CX,CC,NF,HM,NR,KI,TV NZD:NZ,CK,NU,PN,TK " +
  "AFN:AF ALL:AL ANG:CW,SX AOA:AO AWG:AW BAM:BA BBD:BB BDT:BD BHD:BH BIF:BI BMD:BM BND:BN BOB:BO BSD:BS BTN:BT BWP:BW BZD:BZ CDF:CD " +
  "CRC:CR CUP:CU CVE:CV DJF:DJ DOP:DO DZD:DZ ERN:ER ETB:ET FJD:FJ FKP:FK GHS:GH GIP:GI GMD:GM GNF:GN GTQ:GT GYD:GY HNL:HN HTG:HT " +
  "IQD:IQ IRR:IR ISK:IS JMD:JM JOD:JO KHR:KH KMF:KM KPW:KP KWD:KW KYD:KY LAK:LA LBP:LB LKR:LK LRD:LR LSL:LS LYD:LY MAD:MA,EH MGA:MG " +
  "MKD:MK MMK:MM MNT:MN MOP:MO MRU:MR MUR:MU MVR:MV MWK:MW MZN:MZ NAD:NA NIO:NI NPR:NP OMR:OM PAB:PA PGK:PG PKR:PK PYG:PY QAR:QA " +
  "RSD:RS RWF:RW SAR:SA SBD:SB SCR:SC SDG:SD SHP:SH SLE:SL SOS:SO SRD:SR SSP:SS STN:ST SVC:SV SYP:SY SZL:SZ TMT:TM TND:TN TOP:TO " +
  "TTD:TT TWD:TW TZS:TZ UGX:UG UYU:UY VES:VE VUV:VU WST:WS XAF:CM,CF,TD,CG,GQ,GA XCD:AG,DM,GD,KN,LC,VC,AI,MS XOF:SN,CI,BJ,BF,ML,NE,TG,GW " +
  "XPF:PF,NC,WF YER:YE ZMW:ZM ZWG:ZW CUC:CU GGP:GG IMP:IM JEP:JE TVD:TV SLL:SL VED:VE ZWL:ZW BYR:BY VEF:VE MRO:MR STD:ST HRK:HR " +
  "LTL:LT LVL:LV EEK:EE CNH:CN CLF:CL BOV:BO CHE:CH CHW:CH COU:CO MXV:MX USN:US UYI:UY UYW:UY SKK:SK MTL:MT CYP:CY SIT:SI XSU:EC " +
  "KID:KI FOK:FO"

export interface FiatInfo {
  readonly code: string
  /** ISO 3166 alpha-2 codes, the one that stands for the currency first. */
  readonly countries: ReadonlyArray<string>
}

export const FIATS: ReadonlyArray<FiatInfo> = TABLE.split(/\s+/)
  .filter((pair) => pair.length > 0)
  .map((pair) => {
    const [code, countries] = pair.split(":")
    return { code: code!, countries: countries!.split(",") }
  })

export const FIAT_CODES: ReadonlyArray<string> = FIATS.map((fiat) => fiat.code)
const codes = new Set(FIAT_CODES)
const byCountry = new Map<string, string>()
for (const fiat of FIATS) for (const country of fiat.countries) if (!byCountry.has(country)) byCountry.set(country, fiat.code)

/** Spec 1 §5: a fiat code is valid only if it is in the fixed list. */
export const isFiat = (code: string): boolean => codes.has(code)
/** The fiat a country uses (its current currency), if the list knows the country. */
export const fiatOfCountry = (country: string | null | undefined): string | undefined =>
  country === null || country === undefined ? undefined : byCountry.get(country.toUpperCase())
/** The country that stands for a fiat (its first), e.g. EUR -> DE. */
export const countryOfFiat = (code: string): string | undefined => FIATS.find((fiat) => fiat.code === code)?.countries[0]
