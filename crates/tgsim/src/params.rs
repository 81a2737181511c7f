//! Request parameters of a Bot API call, from the query string and a JSON, form-encoded or
//! multipart body. In form and query encodings every value is a string, and nested objects
//! (reply_markup, entities, allowed_updates, scope) arrive as JSON text; the accessors accept both.

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::error::{ApiError, descriptions};

/// The merged parameters of one call (body values win over query values).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Params(Map<String, Value>);

impl Params {
    /// Parses the query string and the body according to its content type.
    pub(crate) fn parse(
        query: Option<&str>,
        content_type: Option<&str>,
        body: &[u8],
    ) -> Result<Self, ApiError> {
        let mut map = Map::new();
        if let Some(query) = query {
            for (k, v) in form_urlencoded::parse(query.as_bytes()) {
                map.insert(k.into_owned(), Value::String(v.into_owned()));
            }
        }
        let raw_type = content_type.unwrap_or("");
        let content_type = raw_type.to_ascii_lowercase();
        if body.iter().all(u8::is_ascii_whitespace) {
            return Ok(Self(map));
        }
        if content_type.starts_with("application/json") {
            match serde_json::from_slice::<Value>(body) {
                Ok(Value::Object(obj)) => map.extend(obj),
                _ => {
                    return Err(ApiError::bad_request(
                        "Bad Request: can't parse JSON object",
                    ));
                }
            }
        } else if content_type.starts_with("multipart/form-data") {
            let boundary = raw_type
                .split(';')
                .find_map(|p| p.trim().strip_prefix("boundary="))
                .map(|b| b.trim_matches('"').to_owned())
                .ok_or_else(|| ApiError::bad_request("Bad Request: can't parse multipart body"))?;
            map.extend(multipart(body, &boundary));
        } else {
            for (k, v) in form_urlencoded::parse(body) {
                map.insert(k.into_owned(), Value::String(v.into_owned()));
            }
        }
        Ok(Self(map))
    }

    /// All parameters as JSON, for the call log.
    pub(crate) fn to_value(&self) -> Value {
        Value::Object(self.0.clone())
    }

    /// True when the parameter is present and not null.
    pub(crate) fn has(&self, key: &str) -> bool {
        self.0.get(key).is_some_and(|v| !v.is_null())
    }

    /// A string parameter; numbers and booleans are given as their JSON text.
    pub(crate) fn str(&self, key: &str) -> Option<String> {
        match self.0.get(key)? {
            Value::String(s) => Some(s.clone()),
            Value::Null => None,
            other => Some(other.to_string()),
        }
    }

    /// An integer parameter; `Err(())` when present but not an integer.
    pub(crate) fn int(&self, key: &str) -> Result<Option<i64>, ()> {
        match self.0.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Number(n)) => n.as_i64().map(Some).ok_or(()),
            Some(Value::String(s)) if s.trim().is_empty() => Ok(None),
            Some(Value::String(s)) => s.trim().parse().map(Some).map_err(|_| ()),
            Some(_) => Err(()),
        }
    }

    /// A boolean parameter: `true`, `"true"`, `"1"` and `1` are true; absent is false.
    pub(crate) fn flag(&self, key: &str) -> bool {
        match self.0.get(key) {
            Some(Value::Bool(b)) => *b,
            Some(Value::Number(n)) => n.as_i64() == Some(1),
            Some(Value::String(s)) => matches!(s.to_ascii_lowercase().as_str(), "true" | "1"),
            _ => false,
        }
    }

    /// A nested JSON parameter, given as JSON or as JSON text. `Ok(None)` when absent.
    pub(crate) fn json<T: DeserializeOwned>(
        &self,
        key: &str,
    ) -> Result<Option<T>, serde_json::Error> {
        match self.0.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) if s.is_empty() => Ok(None),
            Some(Value::String(s)) => serde_json::from_str(s).map(Some),
            Some(v) => T::deserialize(v).map(Some),
        }
    }

    /// The `chat_id` as a number. "@username" and other text resolve to no chat in the simulator.
    pub(crate) fn chat_id(&self) -> Result<i64, ApiError> {
        if !self.has("chat_id") {
            return Err(ApiError::bad_request(descriptions::CHAT_ID_EMPTY));
        }
        match self.int("chat_id") {
            Ok(Some(id)) => Ok(id),
            Ok(None) => Err(ApiError::bad_request(descriptions::CHAT_ID_EMPTY)),
            Err(()) => Err(ApiError::bad_request(descriptions::CHAT_NOT_FOUND)),
        }
    }

    /// The `chat_id` if it is a number, for fault selection and the call log.
    pub(crate) fn chat_hint(&self) -> Option<i64> {
        self.int("chat_id").ok().flatten()
    }
}

/// Text fields of a multipart body; file parts keep their file name as value.
fn multipart(body: &[u8], boundary: &str) -> Map<String, Value> {
    let mut map = Map::new();
    let delimiter = format!("--{boundary}");
    let text = String::from_utf8_lossy(body);
    for part in text.split(delimiter.as_str()).skip(1) {
        if part.starts_with("--") {
            break;
        }
        let part = part.strip_prefix("\r\n").unwrap_or(part);
        let Some((head, value)) = part.split_once("\r\n\r\n") else {
            continue;
        };
        let disposition = head
            .lines()
            .find(|l| l.to_ascii_lowercase().starts_with("content-disposition"))
            .unwrap_or("");
        let attr = |name: &str| {
            disposition
                .split(';')
                .find_map(|p| {
                    p.trim()
                        .strip_prefix(name)
                        .and_then(|v| v.strip_prefix('='))
                })
                .map(|v| v.trim_matches('"').to_owned())
        };
        let Some(name) = attr("name") else { continue };
        let value = attr("filename")
            .unwrap_or_else(|| value.strip_suffix("\r\n").unwrap_or(value).to_owned());
        map.insert(name, Value::String(value));
    }
    map
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_form_query_and_multipart_agree() {
        let json = Params::parse(
            None,
            Some("application/json"),
            br#"{"chat_id":5,"reply_markup":{"a":1}}"#,
        )
        .unwrap();
        let form = Params::parse(
            None,
            Some("application/x-www-form-urlencoded"),
            b"chat_id=5&reply_markup=%7B%22a%22%3A1%7D",
        )
        .unwrap();
        let query =
            Params::parse(Some("chat_id=5&reply_markup=%7B%22a%22%3A1%7D"), None, b"").unwrap();
        let body = b"--XyZ\r\nContent-Disposition: form-data; name=\"chat_id\"\r\n\r\n5\r\n--XyZ\r\nContent-Disposition: form-data; name=\"reply_markup\"\r\n\r\n{\"a\":1}\r\n--XyZ--\r\n";
        let multi = Params::parse(None, Some("multipart/form-data; boundary=XyZ"), body).unwrap();
        for p in [json, form, query, multi] {
            assert_eq!(p.chat_id(), Ok(5));
            assert_eq!(
                p.json::<Value>("reply_markup").unwrap(),
                Some(serde_json::json!({"a": 1}))
            );
        }
    }

    #[test]
    fn chat_id_errors() {
        let empty = Params::default();
        assert_eq!(
            empty.chat_id().unwrap_err().description,
            descriptions::CHAT_ID_EMPTY
        );
        let name = Params::parse(Some("chat_id=%40someone"), None, b"").unwrap();
        assert_eq!(
            name.chat_id().unwrap_err().description,
            descriptions::CHAT_NOT_FOUND
        );
    }
}
