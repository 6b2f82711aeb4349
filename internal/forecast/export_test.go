package forecast

// MemberForecast is memberForecast for the external tests, which count the
// statements it sends.
var MemberForecast = memberForecast
