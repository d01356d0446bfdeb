package sshtest

import (
	"net"
	"strconv"
	"sync"
	"time"

	"knightcode.ai/desktop/remote"
)

// Delayed starts a TCP proxy in front of the server that holds every chunk
// it reads, each way, for delay before passing it on: a link with that
// one-way latency (twice it for a round trip) and no bandwidth limit, in
// order. It returns a Host that connects through it; the proxy stops when
// the test ends.
func (s *Server) Delayed(delay time.Duration) remote.Host {
	s.t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	s.must(err)
	p := &proxy{l: l, to: net.JoinHostPort("127.0.0.1", strconv.Itoa(s.Port)), delay: delay}
	go p.serve()
	s.t.Cleanup(p.close)
	h := s.Host()
	// The known_hosts entry for the alias vouches for the proxied port.
	h.Options = append(h.Options, "Port="+strconv.Itoa(l.Addr().(*net.TCPAddr).Port), "HostKeyAlias="+Alias)
	return h
}

type proxy struct {
	l     net.Listener
	to    string
	delay time.Duration

	mu    sync.Mutex
	conns []net.Conn
	wg    sync.WaitGroup
}

func (p *proxy) serve() {
	for {
		c, err := p.l.Accept()
		if err != nil {
			return
		}
		up, err := net.Dial("tcp", p.to)
		if err != nil {
			c.Close()
			continue
		}
		p.mu.Lock()
		p.conns = append(p.conns, c, up)
		p.mu.Unlock()
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			var pair sync.WaitGroup
			pair.Go(func() { p.pipe(up, c) })
			pair.Go(func() { p.pipe(c, up) })
			pair.Wait()
			c.Close()
			up.Close()
		}()
	}
}

// pipe copies from src to dst, each chunk delay after it was read.
func (p *proxy) pipe(dst, src net.Conn) {
	type chunk struct {
		data []byte
		at   time.Time
	}
	chunks := make(chan chunk, 4096)
	go func() {
		defer close(chunks)
		for {
			buf := make([]byte, 32<<10)
			n, err := src.Read(buf)
			if n > 0 {
				chunks <- chunk{buf[:n], time.Now()}
			}
			if err != nil {
				return
			}
		}
	}()
	for c := range chunks {
		time.Sleep(time.Until(c.at.Add(p.delay)))
		if _, err := dst.Write(c.data); err != nil {
			src.Close()
			break
		}
	}
	for range chunks {
	}
	if tc, ok := dst.(*net.TCPConn); ok {
		tc.CloseWrite()
	} else {
		dst.Close()
	}
}

func (p *proxy) close() {
	p.l.Close()
	p.mu.Lock()
	for _, c := range p.conns {
		c.Close()
	}
	p.mu.Unlock()
	p.wg.Wait()
}
