package demoserver

import (
	"hash/fnv"
	"strings"
)

type weatherIn struct {
	City  string `json:"city"`
	Days  int    `json:"days"`
	Units string `json:"units"`
}

type weatherDay struct {
	Day        int     `json:"day" jsonschema:"1 = tomorrow"`
	High       float64 `json:"high" jsonschema:"highest temperature"`
	Low        float64 `json:"low" jsonschema:"lowest temperature"`
	Conditions string  `json:"conditions"`
}

type weatherOut struct {
	City        string       `json:"city"`
	Units       string       `json:"units" jsonschema:"celsius or fahrenheit"`
	Temperature float64      `json:"temperature" jsonschema:"current temperature"`
	HumidityPct int          `json:"humidity_pct"`
	Conditions  string       `json:"conditions"`
	Forecast    []weatherDay `json:"forecast"`
	Fictional   bool         `json:"fictional" jsonschema:"always true: the data is made up"`
}

// forecast makes up a stable forecast from the city name.
func forecast(in weatherIn) weatherOut {
	conditions := []string{"sunny", "partly cloudy", "cloudy", "light rain", "windy", "foggy"}
	h := fnv.New32a()
	_, _ = h.Write([]byte(strings.ToLower(in.City)))
	seed := h.Sum32()
	conv := func(c float64) float64 {
		if in.Units == "fahrenheit" {
			return c*9/5 + 32
		}
		return c
	}
	out := weatherOut{
		City: in.City, Units: in.Units, Fictional: true,
		Temperature: conv(float64(seed%30) - 2),
		HumidityPct: int(30 + seed%60),
		Conditions:  conditions[seed%uint32(len(conditions))],
		Forecast:    []weatherDay{},
	}
	for d := 1; d <= in.Days; d++ {
		v := seed / uint32(d*7+1)
		low := float64(v%20) - 3
		out.Forecast = append(out.Forecast, weatherDay{Day: d, Low: conv(low), High: conv(low + float64(3+v%9)),
			Conditions: conditions[v%uint32(len(conditions))]})
	}
	return out
}
