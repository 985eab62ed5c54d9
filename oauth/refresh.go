package oauth

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"

	"golang.org/x/oauth2"
)

// refreshGrant sends the refresh_token grant itself: golang.org/x/oauth2
// sends no parameter beyond the refresh token on a refresh, and MCP
// authorization requires the resource (RFC 8707) on every token request,
// the refresh included. The client authenticates as rec.TokenAuth says
// (basic: the HTTP header; post and none: the form). A refusal is an
// *oauth2.RetrieveError, as x/oauth2 reports one.
func refreshGrant(ctx context.Context, hc *http.Client, rec *Record, secret string) (*oauth2.Token, error) {
	form := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {rec.RefreshToken}}
	if rec.Resource != "" {
		form.Set("resource", rec.Resource)
	}
	basic := authStyle(rec.TokenAuth) == oauth2.AuthStyleInHeader
	if !basic {
		form.Set("client_id", rec.ClientID)
		if secret != "" && rec.TokenAuth != "none" {
			form.Set("client_secret", secret)
		}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, rec.TokenURL, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	if basic {
		req.SetBasicAuth(url.QueryEscape(rec.ClientID), url.QueryEscape(secret))
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxDocument+1))
	if err != nil {
		return nil, err
	}
	if len(body) > maxDocument {
		return nil, fmt.Errorf("the token endpoint's answer is over %d bytes", maxDocument)
	}
	var t struct {
		AccessToken  string          `json:"access_token"`
		TokenType    string          `json:"token_type"`
		RefreshToken string          `json:"refresh_token"`
		ExpiresIn    json.Number     `json:"expires_in"`
		Scope        json.RawMessage `json:"scope"`
		Error        string          `json:"error"`
		Description  string          `json:"error_description"`
	}
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	jsonErr := json.Unmarshal(body, &t)
	if resp.StatusCode < 200 || resp.StatusCode > 299 || t.Error != "" {
		return nil, &oauth2.RetrieveError{Response: resp, Body: body, ErrorCode: t.Error, ErrorDescription: t.Description}
	}
	if jsonErr != nil || ct != "application/json" && ct != "" && !strings.HasSuffix(ct, "+json") {
		return nil, fmt.Errorf("the token endpoint did not answer JSON (%s)", ct)
	}
	if t.AccessToken == "" {
		return nil, &oauth2.RetrieveError{Response: resp, Body: body, ErrorDescription: "the answer holds no access_token"}
	}
	tok := &oauth2.Token{AccessToken: t.AccessToken, TokenType: t.TokenType, RefreshToken: t.RefreshToken}
	if secs, err := t.ExpiresIn.Int64(); err == nil && secs > 0 {
		tok.Expiry = time.Now().Add(time.Duration(secs) * time.Second)
	}
	extra := map[string]any{}
	var scope string
	if json.Unmarshal(t.Scope, &scope) == nil {
		extra["scope"] = scope
	}
	return tok.WithExtra(extra), nil
}
