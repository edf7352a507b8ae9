#!/usr/bin/env python3
"""A loopback stand-in for Open-Meteo's forecast and geocoding APIs, for the end-to-end tests.

Replies have the shape of the real service's (field names from its public documentation; values
made up here). Writes the port it listens on to the file named by its first argument.
FAIL=1 in the environment makes every forecast request answer HTTP 500.
"""
import json
import os
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

START = int(time.time()) // 86400 * 86400


def location(index):
    hours = [START + h * 3600 for h in range(168)]
    return {
        "latitude": 48.85, "longitude": 2.35, "utc_offset_seconds": 3600, "timezone": "Europe/Paris",
        "current": {"time": int(time.time()), "temperature_2m": 11.5 + index, "apparent_temperature": 9.0,
                    "relative_humidity_2m": 71, "weather_code": 61, "wind_speed_10m": 13.0, "is_day": 1},
        "hourly": {"time": hours, "temperature_2m": [8 + (h % 24) / 3 for h in range(168)],
                   "weather_code": [3] * 168, "precipitation_probability": [None if h % 7 == 0 else 40 for h in range(168)]},
        "daily": {"time": [START + d * 86400 for d in range(7)], "weather_code": [0, 2, 61, 71, 95, 3, 45],
                  "temperature_2m_max": [14, 15, 13, 9, 12, 11, 10], "temperature_2m_min": [6, 7, 5, 1, 4, 3, 2],
                  "precipitation_probability_max": [10, 20, 80, 60, 90, 30, 10]},
    }


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def reply(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        url = urlparse(self.path)
        query = parse_qs(url.query)
        if url.path == "/v1/forecast":
            if os.environ.get("FAIL") == "1":
                return self.reply(500, {"error": True, "reason": "simulated failure"})
            count = len(query.get("latitude", [""])[0].split(","))
            body = location(0) if count == 1 else [location(i) for i in range(count)]
            return self.reply(200, body)
        if url.path == "/v1/search":
            name = query.get("name", [""])[0]
            return self.reply(200, {"results": [{"id": 999000001, "name": name + " Online\u001b[31m", "latitude": 1.5,
                                                 "longitude": 2.5, "country_code": "ZZ", "country": "Nowhere"}]})
        self.reply(404, {"error": True, "reason": "not found"})


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
with open(sys.argv[1], "w") as port_file:
    port_file.write(str(server.server_address[1]))
server.serve_forever()
