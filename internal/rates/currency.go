package rates

import "strings"

// iso4217 is ISO 4217 List One, the currencies and funds in use (as amended
// up to 2025: VES, SLE, ZWG and XCG in; HRK, SLL, ZWL, CUC, ANG out), without
// XTS and XXX, which name no money. golang.org/x/text/currency was the first
// choice, but its table is years old: it lacks VES, SLE, ZWG and XCG and
// takes withdrawn codes such as DEM and VEF.
var iso4217 = func() map[string]bool {
	codes := strings.Fields(`
		AED AFN ALL AMD AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BOV
		BRL BSD BTN BWP BYN BZD CAD CDF CHE CHF CHW CLF CLP CNY COP COU CRC CUP CVE
		CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GNF GTQ GYD
		HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW
		KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR
		MWK MXN MXV MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG
		QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP
		SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD USN UYI UYU UYW UZS VED
		VES VND VUV WST XAF XAG XAU XBA XBB XBC XBD XCD XCG XDR XOF XPD XPF XPT XSU
		XUA YER ZAR ZMW ZWG`)
	m := make(map[string]bool, len(codes))
	for _, c := range codes {
		m[c] = true
	}
	return m
}()

// IsCurrency reports whether code is an ISO 4217 code in use, upper case.
func IsCurrency(code string) bool { return iso4217[code] }
